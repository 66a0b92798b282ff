import Foundation
import Testing

@testable import DocumentKit

/// diff and restore: the history users go back through.
@Suite struct HistoryTests {
    /// A bundle with three tasks whose ids are fixed, in `directory`.
    private func makeBundle(in directory: URL) throws {
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory)
        let tasks = (1...3).map { #"{"id": "00000000-0000-4000-8000-00000000000\#($0)", "title": "task \#($0)"}"# }
        try Run.docctl(
            ["set", "p.dkproj", "tasks", "[\(tasks.joined(separator: ","))]", "-m", "three tasks"], in: directory)
    }

    @Test func diffMatchesArrayElementsByIdNotPosition() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        // Reverse the tasks, edit one, drop one, add one: by position everything changed.
        let tasks = [
            #"{"id": "00000000-0000-4000-8000-000000000004", "title": "task 4"}"#,
            #"{"id": "00000000-0000-4000-8000-000000000003", "title": "task 3"}"#,
            #"{"id": "00000000-0000-4000-8000-000000000001", "title": "task one"}"#
        ]
        try Run.docctl(["set", "p.dkproj", "tasks", "[\(tasks.joined(separator: ","))]"], in: directory.url)
        let diff = try VersionDiff(of: directory.url.appendingPathComponent("p.dkproj"), from: "2")
        #expect(
            diff.changes.map { "\($0.kind.rawValue) \($0.path)" } == [
                "changed tasks[id=00000000-0000-4000-8000-000000000001].title",
                "removed tasks[id=00000000-0000-4000-8000-000000000002]",
                "added tasks[id=00000000-0000-4000-8000-000000000004]",
                "reordered tasks"
            ])
        #expect(diff.changes[0].old == .string("task 1") && diff.changes[0].new == .string("task one"))

        let text = try Run.docctl(["diff", "p.dkproj", "2", "3"], in: directory.url)
        #expect(text.status == 1, "differences exit 1, like diff")
        #expect(
            text.output.split(separator: "\n").dropFirst(2).first
                == #"~ tasks[id=00000000-0000-4000-8000-000000000001].title: "task 1" -> "task one""#)
        let same = try Run.docctl(["diff", "p.dkproj", "3", "head"], in: directory.url)
        #expect(same.status == 0 && same.output.split(separator: "\n").count == 2)
    }

    @Test func diffReportsBlobsAndPrintsExactJSON() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        try Fixtures.write(Fixtures.png, to: "t.png", in: directory.url)
        try Run.docctl(["attach", "p.dkproj", "t.png"], in: directory.url)
        let digest = ObjectDigest.of(Fixtures.png).hex
        let result = try Run.docctl(["diff", "p.dkproj", "1", "2", "--json"], in: directory.url)
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        let (first, second) = (try bundle.manifest.versions[0], try bundle.manifest.versions[1])
        #expect(result.status == 1)
        #expect(
            result.output == """
                {
                  "blobs" : [
                    {
                      "digest" : "\(digest)",
                      "kind" : "added",
                      "size" : 67
                    }
                  ],
                  "changes" : [
                    {
                      "kind" : "added",
                      "new" : {
                        "$blob" : "\(digest)",
                        "mediaType" : "image/png",
                        "name" : "t.png",
                        "size" : 67
                      },
                      "path" : "thumbnail"
                    }
                  ],
                  "from" : {
                    "author" : "\(first.author)",
                    "created" : "2026-01-01T00:00:00Z",
                    "id" : "\(first.id)",
                    "message" : "Create Garden",
                    "number" : 1,
                    "parents" : [],
                    "schema" : "4.0.0",
                    "writer" : "DocumentKit \(DocumentKitInfo.version)"
                  },
                  "to" : {
                    "author" : "\(second.author)",
                    "changes" : {
                      "blobs" : [
                        {
                          "digest" : "\(digest)",
                          "kind" : "added",
                          "size" : 67
                        }
                      ],
                      "omitted" : 0,
                      "paths" : [
                        {
                          "kind" : "added",
                          "path" : "thumbnail"
                        }
                      ]
                    },
                    "created" : "2026-01-01T00:00:00Z",
                    "id" : "\(second.id)",
                    "message" : "Attach t.png",
                    "number" : 2,
                    "parents" : [
                      "\(first.id)"
                    ],
                    "schema" : "4.0.0",
                    "writer" : "DocumentKit \(DocumentKitInfo.version)"
                  }
                }

                """)
    }

    @Test func restoreAppendsAVersionEqualToTheOldOne() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        try Run.docctl(["set", "p.dkproj", "name", "Renamed"], in: directory.url)
        let restored = try Run.docctl(["restore", "p.dkproj", "2", "-m", "Back to three tasks"], in: directory.url)
        #expect(restored.status == 0)
        #expect(restored.output.hasPrefix("saved version 4 ("))
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        #expect(try bundle.manifest.versions.map(\.number) == [1, 2, 3, 4], "nothing is rewritten")
        #expect(try bundle.headVersion.tree == bundle.manifest.versions[1].tree, "the same content, to the byte")
        #expect(bundle.headVersion.message == "Back to three tasks")
        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "Garden\n")
        #expect(try Run.docctl(["restore", "p.dkproj", "head"], in: directory.url).output.hasPrefix("no change"))
        expectFailure(
            try Run.docctl(["restore", "p.dkproj", "9"], in: directory.url), status: 65, containing: "no version '9'")
        #expect(try BundleValidator.validate(bundle.url, deep: true).valid)
    }

    @Test func restoringAVersionWhoseBlobIsGoneIsRefusedAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        try Fixtures.write(Fixtures.png, to: "t.png", in: directory.url)
        try Run.docctl(["attach", "p.dkproj", "t.png"], in: directory.url)
        try Run.docctl(["unset", "p.dkproj", "thumbnail"], in: directory.url)
        // Version 2's thumbnail blob removed behind the format's back, as a careless
        // hand-made prune would: its entry gone (in format 3 the history's item that names
        // the entry stays).
        #expect(try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj")).formatVersion == 3)
        let digest = ObjectDigest.of(Fixtures.png).hex
        let script = """
            import json, sys, zipfile
            source = zipfile.ZipFile(sys.argv[1])
            manifest = json.loads(source.read("manifest.json"))
            with zipfile.ZipFile(sys.argv[2], "w") as out:
                for info in source.infolist():
                    if info.filename == "objects/" + sys.argv[3][:2] + "/" + sys.argv[3][2:]:
                        continue
                    data = json.dumps(manifest).encode() if info.filename == "manifest.json" else source.read(info.filename)
                    out.writestr(zipfile.ZipInfo(info.filename, (1980, 1, 1, 0, 0, 0)), data)
            """
        let damaged = directory.url.appendingPathComponent("damaged.dkproj")
        #expect(try ExternalTool.python(script, [directory.path("p.dkproj"), damaged.path, digest]).status == 0)
        let before = try Data(contentsOf: damaged)
        expectFailure(
            try Run.docctl(["restore", "damaged.dkproj", "2"], in: directory.url), status: 65,
            containing: "version 2 cannot be restored")
        #expect(try Data(contentsOf: damaged) == before, "nothing written")
        #expect(
            try Run.docctl(["restore", "damaged.dkproj", "1"], in: directory.url).status == 0, "other versions restore")
    }
}
