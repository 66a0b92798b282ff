import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// Bundles are ordinary zips: other tools list and read them, and the same edits give
/// the same bytes on any machine.
@Suite struct InteropTests {
    private func makeBundle(in directory: URL, environment: [String: String] = [:]) throws {
        try Fixtures.write(Fixtures.png, to: "thumb.png", in: directory)
        for arguments in [
            ["new", "p.dkproj", "--name", "Café ☕", "--author", "ada"],
            ["set", "p.dkproj", "tasks[+]", #"{"title": "Grind beans"}"#, "--author", "ada"],
            ["attach", "p.dkproj", "thumb.png", "--author", "ada"]
        ] {
            let result = try Run.docctl(arguments, in: directory, environment: environment)
            #expect(result.status == 0, "\(result.standardError)")
        }
    }

    @Test(.enabled(if: ExternalTool.unzip.isAvailable)) func unzipTestsListsAndPrintsTheDocument() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        let test = try ExternalTool.unzip.run(["-t", directory.path("p.dkproj")])
        #expect(test.status == 0 && test.output.contains("No errors detected"))
        let names = try ExternalTool.unzip.run(["-Z1", directory.path("p.dkproj")]).output.split(separator: "\n")
        #expect(names.first == "mimetype" && names[1] == "document.json" && names.last == "manifest.json")
        let printed = try ExternalTool.unzip.run(["-p", directory.path("p.dkproj"), "document.json"])
        #expect(printed.standardOutput == (try Run.docctl(["cat", "p.dkproj"], in: directory.url).standardOutput))
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable)) func pythonsZipfileReadsEveryEntry() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        let result = try ExternalTool.python(
            """
            import json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            first = z.infolist()[0]
            assert first.filename == "mimetype" and first.compress_type == 0 and first.extra == b""
            manifest = json.loads(z.read("manifest.json"))
            document = json.loads(z.read("document.json"))
            print(z.read("mimetype").decode(), manifest["formatVersion"], manifest["versions"], document["name"])
            """, [directory.path("p.dkproj")])
        #expect(result.output == "application/vnd.documentkit.project+zip 3 3 Café ☕\n", "\(result.standardError)")
    }

    @Test(.enabled(if: ExternalTool.bsdtar.isAvailable)) func bsdtarListsAndExtracts() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        let list = try ExternalTool.bsdtar.run(["-tf", directory.path("p.dkproj")])
        #expect(list.status == 0 && list.output.hasPrefix("mimetype\ndocument.json\nobjects/"))
        let document = try ExternalTool.bsdtar.run(["-xOf", directory.path("p.dkproj"), "document.json"])
        #expect(try Project.decode(document.standardOutput).name == "Café ☕")
    }

    @Test func theSameEditsGiveTheSameBytesInAnyTimeZoneUmaskAndLocale() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        try makeBundle(in: first.url, environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"])
        try makeBundle(in: second.url, environment: ["TZ": "Pacific/Kiritimati", "LC_ALL": "C", "LANG": "de_DE.UTF-8"])
        let a = try Data(contentsOf: first.url.appendingPathComponent("p.dkproj"))
        let b = try Data(contentsOf: second.url.appendingPathComponent("p.dkproj"))
        #expect(a == b)
        // umask only changes the new file's mode, never its bytes.
        let third = try TemporaryDirectory()
        let result = try ExternalTool(name: "sh").run(
            [
                "-c",
                """
                umask 077 && cd \"$1\" && \"$2\" new p.dkproj --name 'Café ☕' --author ada && \"$2\" set p.dkproj \
                'tasks[+]' '{\"title\": \"Grind beans\"}' --author ada && cp \"$3\" thumb.png && \"$2\" attach \
                p.dkproj thumb.png --author ada
                """,
                "sh", third.url.path, Run.docctlURL.path, first.path("thumb.png")
            ],
            environment: [
                "SOURCE_DATE_EPOCH": "1767225600", "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": Run.noConfigurationHome
            ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Data(contentsOf: third.url.appendingPathComponent("p.dkproj")) == a)
        var info = stat()
        stat(third.path("p.dkproj"), &info)
        #expect(info.st_mode & 0o777 == 0o600, "a new bundle honours the umask")
    }

    @Test func timestampsFollowSourceDateEpoch() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url, environment: ["SOURCE_DATE_EPOCH": "1000000000"])
        #expect(try Run.docctl(["get", "p.dkproj", "createdAt"], in: directory.url).output == "2001-09-09T01:46:40Z\n")
        let log = try Run.docctl(["log", "p.dkproj", "--json"], in: directory.url).output
        #expect(log.contains(#""created" : "2001-09-09T01:46:40Z""#))
    }

    @Test func sampleDocsRegenerateByteForByte() throws {
        let root = Fixtures.repository
        let script = root.appendingPathComponent("SampleDocs/regenerate.sh")
        let result = try ExternalTool(name: "bash").run(
            [script.path, "--check"], environment: ["DOCCTL": Run.docctlURL.path, "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.standardError)")
        for name in ["small.dkproj", "garden.dkproj", "legacy-v1.dkproj", "legacy-v2.dkproj"] {
            #expect(
                try Run.docctl(["validate", "--deep", root.appendingPathComponent("SampleDocs/\(name)").path]).status
                    == 0)
        }
    }
}
