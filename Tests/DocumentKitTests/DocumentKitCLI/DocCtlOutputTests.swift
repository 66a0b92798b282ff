import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// The output scripts depend on, checked byte for byte: --json forms, help, version.
@Suite struct DocCtlOutputTests {
    /// The JSON form of a version, as every command prints it.
    private func versionJSON(_ version: BundleVersion, indent: String) -> String {
        let parents = version.parents.isEmpty ? "[]" : "[\n\(indent)    \"\(version.parents[0])\"\n\(indent)  ]"
        // Every version here but the first renamed the project: one changed path.
        let changes =
            version.parents.isEmpty
            ? ""
            : """

            \(indent)  "changes" : {
            \(indent)    "blobs" : [],
            \(indent)    "omitted" : 0,
            \(indent)    "paths" : [
            \(indent)      {
            \(indent)        "kind" : "changed",
            \(indent)        "path" : "name"
            \(indent)      }
            \(indent)    ]
            \(indent)  },
            """
        return """
            {
            \(indent)  "author" : "\(version.author)",\(changes)
            \(indent)  "created" : "2026-01-01T00:00:00Z",
            \(indent)  "id" : "\(version.id)",
            \(indent)  "message" : "\(version.message)",
            \(indent)  "number" : \(version.number),
            \(indent)  "parents" : \(parents),
            \(indent)  "schema" : "4.0.0",
            \(indent)  "writer" : "DocumentKit \(DocumentKitInfo.version)"
            \(indent)}
            """
    }

    @Test func newSetInfoLogAndValidatePrintExactJSON() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        let new = try Run.docctl(["new", "p.dkproj", "--author", "ada", "--json"], in: directory.url)
        var bundle = try DocumentBundle(contentsOf: url)
        let first = bundle.headVersion
        #expect(first.id == first.computeID())
        #expect(new.output == versionJSON(first, indent: "") + "\n")

        let set = try Run.docctl(["set", "p.dkproj", "name", "Renamed", "--author", "ada", "--json"], in: directory.url)
        bundle = try DocumentBundle(contentsOf: url)
        let second = bundle.headVersion
        #expect(
            set.output == """
                {
                  "previous" : \(versionJSON(first, indent: "  ")),
                  "saved" : true,
                  "version" : \(versionJSON(second, indent: "  "))
                }

                """)

        let info = try Run.docctl(["info", "p.dkproj", "--json"], in: directory.url)
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
        let objects = try #require(bundle.history?.manifest.objects, "format 3 counts its objects in manifest.json")
        #expect(
            info.output == """
                {
                  "blobCount" : 0,
                  "contentType" : "org.documentkit.project",
                  "documentBytes" : \(try bundle.headDocumentData().count),
                  "fileBytes" : \(size),
                  "formatVersion" : 3,
                  "head" : \(versionJSON(second, indent: "  ")),
                  "mimeType" : "application/vnd.documentkit.project+zip",
                  "objectBytes" : \(objects.bytes),
                  "objectCount" : 4,
                  "path" : "p.dkproj",
                  "reclaimableBytes" : 0,
                  "stateKeys" : 0,
                  "storedBytes" : \(objects.storedBytes),
                  "versionCount" : 2
                }

                """)

        let log = try Run.docctl(["log", "p.dkproj", "--json"], in: directory.url)
        #expect(log.output == "[\n  \(versionJSON(second, indent: "  ")),\n  \(versionJSON(first, indent: "  "))\n]\n")
        let oneline = try Run.docctl(["log", "p.dkproj", "-n", "1", "--oneline"], in: directory.url)
        #expect(oneline.output == "2  \(second.shortID)  2026-01-01T00:00:00Z  ada  Set name\n")
        let text = try Run.docctl(["log", "p.dkproj"], in: directory.url)
        #expect(
            text.output == """
                version 2  \(second.id)
                parent   \(first.id)
                date     2026-01-01T00:00:00Z
                author   ada
                schema   4.0.0  (DocumentKit \(DocumentKitInfo.version))

                    Set name

                    ~ name

                version 1  \(first.id)
                parent   none
                date     2026-01-01T00:00:00Z
                author   ada
                schema   4.0.0  (DocumentKit \(DocumentKitInfo.version))

                    Create p

                    (first version)

                """)

        let validate = try Run.docctl(["validate", "p.dkproj", "--json"], in: directory.url)
        #expect(validate.status == 0)
        #expect(
            validate.output == """
                [
                  {
                    "deep" : false,
                    "file" : "p.dkproj",
                    "findings" : [],
                    "objects" : 4,
                    "valid" : true,
                    "versions" : 2
                  }
                ]

                """)
    }

    @Test func helpIsPrintedExactly() throws {
        let help = try Run.docctl(["set", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(
            help.output == """
                OVERVIEW: Set the value at a JSON path, as one new version.

                VALUE is read as JSON where it parses (42, true, null, {"title": "x"}),
                otherwise as a string; --string always takes it as a string. The result is
                checked against the document's schema and completed (a new task gets an id); an
                invalid result is refused and nothing is saved. tasks[+] appends. VALUE - reads
                the JSON from standard input (with --string, its text).

                USAGE: docctl set <bundle> <path> <value> [--string] [--message <message>] [--author <author>] [--dry-run] [--json] [--quiet]

                ARGUMENTS:
                  <bundle>                The bundle (.dkproj) to work on.
                  <path>                  A path such as name, tasks[0].title, tasks[+] or
                                          tasks[*].status.
                  <value>                 The new value, or - to read it from standard input.

                OPTIONS:
                  --string                Take VALUE as a string even if it parses as JSON.
                  -m, --message <message> Why: recorded in the version.
                  --author <author>       Who: recorded in the version (default: your
                                          author.name in 'docctl config', else your login name).
                  --dry-run               Do everything but write: check the change and report
                                          the version it would save.
                  --json                  Print machine-readable JSON instead of text.
                  -q, --quiet             Print nothing but errors, and no progress: the exit
                                          status tells.
                  -h, --help              Show help information.


                """)
        for command in [
            "new", "info", "ls", "cat", "get", "unset", "edit", "attach", "extract", "log", "show", "diff", "restore",
            "prune", "migrate", "export", "import", "validate", "config", "state"
        ] {
            let result = try Run.docctl([command, "--help"])
            #expect(result.status == 0 && result.output.contains("USAGE: docctl \(command)"), "\(command)")
        }
        let version = try Run.docctl(["--version"])
        #expect(version.output == "\(DocumentKitInfo.version)\n")
        #expect(
            try Run.docctl(["cat", "--help"]).output.components(separatedBy: "--version").count == 3,
            "only the bundle-version option, in usage and options")
    }

    @Test func usageErrorsAreOneLineWithStatus64() throws {
        expectFailure(
            try Run.docctl(["bogus"]), status: 64,
            containing: "error: 'bogus' is not a docctl command (see 'docctl --help')")
        expectFailure(try Run.docctl(["info"]), status: 64, containing: "missing expected argument '<bundles> ...'")
        expectFailure(
            try Run.docctl(["export", "x.dkproj", "--format", "rar", "-o", "x"]), status: 64, containing: "'rar'")
        expectFailure(try Run.docctl(["validate"]), status: 64, containing: "missing expected argument '<bundles> ...'")
    }

    @Test func aValueOutsideTheListNamesTheValuesThatAreAllowed() throws {
        let result = try Run.docctl(["export", "x.dkproj", "--format", "rar", "-o", "x"])
        #expect(result.status == 64 && result.output.isEmpty)
        #expect(
            result.standardError
                == """
                error: the value 'rar' is invalid for '--format <format>'; one of: zip, tar, tar.gz, tar.zst, dir, \
                json, bagit, html (see 'docctl export --help')\n
                """
        )
        #expect(
            UsageErrorText.oneLine(
                """
                Error: Unknown option '--jsn'\nUsage: docctl cat <bundle>\n  See 'docctl cat --help' for more \
                information.
                """
            ) == "unknown option '--jsn'")
    }
}
