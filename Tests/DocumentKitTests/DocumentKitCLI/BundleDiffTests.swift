import Foundation
import Testing

@testable import DocumentKit

/// `diff A B`: two bundles, each at its head or a version; and `diff B V1 V2` as it was.
@Suite struct BundleDiffTests {
    @Test func diffComparesTwoBundlesEachAtItsHeadOrAtAVersion() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.twoCopies(in: directory.url)
        let a = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("a.dkproj")).headVersion
        let b = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("b.dkproj")).headVersion
        let text = try Run.docctl(["diff", "a.dkproj", "b.dkproj"], in: directory.url)
        #expect(text.status == 1, "different: 1, as diff")
        let task =
            #"{"id":"00000000-0000-4000-8000-000000000001","notes":"","priority":"medium","status":"todo","title":"Dig"}"#
        #expect(
            text.output == """
                --- a.dkproj: version 1 (\(a.shortID)) 2026-01-01T00:00:00Z Create Garden
                +++ b.dkproj: version 2 (\(b.shortID)) 2026-01-01T00:00:00Z Dig
                + tasks[id=00000000-0000-4000-8000-000000000001]: \(task)

                """)
        let json = try Run.docctl(["diff", "b.dkproj:2", "a.dkproj", "--json"], in: directory.url)
        #expect(json.status == 1)
        #expect(
            json.output == """
                {
                  "blobs" : [],
                  "changes" : [
                    {
                      "kind" : "removed",
                      "old" : {
                        "id" : "00000000-0000-4000-8000-000000000001",
                        "notes" : "",
                        "priority" : "medium",
                        "status" : "todo",
                        "title" : "Dig"
                      },
                      "path" : "tasks[id=00000000-0000-4000-8000-000000000001]"
                    }
                  ],
                  "from" : {
                    "author" : "bob",
                    "changes" : {
                      "blobs" : [],
                      "omitted" : 0,
                      "paths" : [
                        {
                          "kind" : "added",
                          "path" : "tasks[id=00000000-0000-4000-8000-000000000001]"
                        }
                      ]
                    },
                    "created" : "2026-01-01T00:00:00Z",
                    "id" : "\(b.id)",
                    "message" : "Dig",
                    "number" : 2,
                    "parents" : [
                      "\(a.id)"
                    ],
                    "schema" : "4.0.0",
                    "writer" : "DocumentKit \(DocumentKitInfo.version)"
                  },
                  "fromBundle" : "b.dkproj",
                  "to" : {
                    "author" : "ada",
                    "created" : "2026-01-01T00:00:00Z",
                    "id" : "\(a.id)",
                    "message" : "Create Garden",
                    "number" : 1,
                    "parents" : [],
                    "schema" : "4.0.0",
                    "writer" : "DocumentKit \(DocumentKitInfo.version)"
                  },
                  "toBundle" : "a.dkproj"
                }

                """)
        // The same version in both copies: no difference.
        let same = try Run.docctl(["diff", "b.dkproj:1", "a.dkproj:head"], in: directory.url)
        #expect(same.status == 0)
        #expect(
            same.output == """
                --- b.dkproj: version 1 (\(a.shortID)) 2026-01-01T00:00:00Z Create Garden
                +++ a.dkproj: version 1 (\(a.shortID)) 2026-01-01T00:00:00Z Create Garden

                """)
        #expect(try Run.docctl(["diff", "./b.dkproj:head~1", "a.dkproj"], in: directory.url).status == 0)
    }

    @Test func diffOfOneBundlesVersionsIsAsItWas() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.twoCopies(in: directory.url)
        let b = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("b.dkproj")).manifest.versions
        let result = try Run.docctl(["diff", "b.dkproj", "1"], in: directory.url)
        #expect(result.status == 1)
        #expect(
            result.output.hasPrefix(
                "--- version 1 (\(b[0].shortID)) 2026-01-01T00:00:00Z Create Garden\n+++ version 2 ("))
        #expect(try Run.docctl(["diff", "b.dkproj", "1", "head~1"], in: directory.url).status == 0)
        let json = try Run.docctl(["diff", "b.dkproj", "1", "2", "--json"], in: directory.url).output
        #expect(!json.contains("Bundle\""), "no bundle keys for versions of one bundle")
    }

    @Test func aBundleIsAnExistingFileOrFileColonVersion() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.twoCopies(in: directory.url)
        // A file named like a version is a bundle; with three arguments, the second and third
        // are versions, as always.
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("1"))
        #expect(
            try Run.docctl(["diff", "b.dkproj", "1"], in: directory.url).output.hasPrefix("--- b.dkproj: version 2 ("))
        #expect(try Run.docctl(["diff", "b.dkproj", "1", "2"], in: directory.url).output.hasPrefix("--- version 1 ("))
        // A file whose name has a colon is a bundle as a whole.
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("a.dkproj:2")
        )
        #expect(
            try Run.docctl(["diff", "b.dkproj", "a.dkproj:2"], in: directory.url).output.hasPrefix(
                """
                --- b.dkproj: version 2 \
                (\(try DocumentBundle(contentsOf: directory.url.appendingPathComponent("b.dkproj")).headVersion.shortID)) \
                2026-01-01T00:00:00Z Dig\n+++ a.dkproj:2: version 1 (
                """
            ))

        let cases: [([String], Int32, String)] = [
            (
                ["diff", "a.dkproj", "b.dkproj", "head"], 65,
                "error: a.dkproj: no version 'b.dkproj' (versions 1–1; use a number, an id prefix, head or head~N)"
            ),
            (
                ["diff", "a.dkproj:9", "b.dkproj"], 65,
                "error: a.dkproj: no version '9' (versions 1–1; use a number, an id prefix, head or head~N)"
            ),
            (
                ["diff", "a.dkproj", "b.dkproj:zz"], 65,
                "error: b.dkproj: no version 'zz' (versions 1–2; use a number, an id prefix, head or head~N)"
            ),
            (
                ["diff", "a.dkproj", "nope"], 65,
                "error: a.dkproj: no version 'nope' (versions 1–1; use a number, an id prefix, head or head~N)"
            ),
            (["diff", "nope.dkproj", "b.dkproj"], 66, "error: nope.dkproj: cannot open: No such file or directory")
        ]
        for (arguments, status, message) in cases {
            let result = try Run.docctl(arguments, in: directory.url)
            #expect(result.status == status, "\(arguments)")
            #expect(result.standardError == message + "\n", "\(arguments)")
            #expect(result.output.isEmpty, "\(arguments)")
        }
    }
}
