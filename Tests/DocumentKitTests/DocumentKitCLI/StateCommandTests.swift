import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// `docctl state` run as a real process: output, exit statuses, what the bundle holds
/// afterwards, and that no version is ever made.
@Suite struct StateCommandTests {
    private let taskID = "6F9619FF-8B86-D011-B42D-00C04FC964FF"

    @discardableResult
    private func docctl(
        _ arguments: [String], in directory: TemporaryDirectory,
        environment: [String: String] = [:]
    ) throws -> ExternalTool.Result {
        try Run.docctl(arguments, in: directory.url, environment: environment)
    }

    /// A new bundle `p.dkproj` of one version.
    private func newBundle(in directory: TemporaryDirectory) throws -> URL {
        try docctl(["new", "p.dkproj", "--name", "Garden", "--author", "ada"], in: directory)
        return directory.url.appendingPathComponent("p.dkproj")
    }

    /// Replaces the bundle's `state.json` with `text` (adding it last), with Python.
    private func writeStateEntry(_ url: URL, _ text: String) throws {
        let stateFile = url.deletingLastPathComponent().appendingPathComponent("state.txt")
        try Data(text.utf8).write(to: stateFile)
        defer { try? FileManager.default.removeItem(at: stateFile) }
        let result = try ExternalTool.python(
            """
            import sys, zipfile
            path, state = sys.argv[1], open(sys.argv[2], "rb").read()
            src = zipfile.ZipFile(path)
            entries = [(i.filename, src.read(i.filename)) for i in src.infolist() if i.filename != "state.json"]
            src.close()
            with zipfile.ZipFile(path, "w") as z:
                for n, d in entries + [("state.json", state)]:
                    z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d)
            """, [url.path, stateFile.path])
        try #require(result.status == 0, "\(result.standardError)")
    }

    @Test func setGetUnsetAndListPrintExactly() throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        #expect(
            try docctl(["state", "list", "p.dkproj"], in: directory).output == """
                export.format     (not set)
                task.last-opened  (not set)
                remote.default    (not set)

                """)
        for (key, value) in [
            ("export.format", "tar.zst"), ("task.last-opened", taskID.lowercased()), ("zoom", "1.5"),
            ("com.example.title", "Spring beds")
        ] {
            let set = try docctl(["state", "set", "p.dkproj", key, value], in: directory)
            #expect(set.status == 0 && set.output.isEmpty && set.standardError.isEmpty, "\(set.standardError)")
        }
        try docctl(["state", "set", "p.dkproj", "com.example.count", "42", "--string"], in: directory)
        #expect(
            try docctl(["state", "list", "p.dkproj"], in: directory).output == """
                export.format      tar.zst
                task.last-opened   \(taskID)
                remote.default     (not set)
                com.example.count  42
                com.example.title  Spring beds
                zoom               1.5

                """)
        #expect(try docctl(["state", "get", "p.dkproj", "task.last-opened"], in: directory).output == "\(taskID)\n")
        #expect(
            try docctl(["state", "get", "p.dkproj", "exportFormat"], in: directory).output == "tar.zst\n",
            "a key names its setting too")
        #expect(
            try docctl(["state", "get", "p.dkproj", "zoom", "--json"], in: directory).output == """
                {
                  "default" : null,
                  "key" : "zoom",
                  "name" : "zoom",
                  "set" : true,
                  "value" : 1.5
                }

                """)
        #expect(
            try ExternalTool.unzip.run(["-p", url.path, "state.json"]).output == """
                {
                  "com.example.count" : "42",
                  "com.example.title" : "Spring beds",
                  "exportFormat" : "tar.zst",
                  "lastOpenedTask" : "\(taskID)",
                  "zoom" : 1.5
                }

                """)

        for key in ["zoom", "com.example.title", "com.example.count", "task.last-opened"] {
            #expect(try docctl(["state", "unset", "p.dkproj", key], in: directory).status == 0)
        }
        try docctl(["state", "unset", "p.dkproj", "zoom"], in: directory)  // unsetting twice is fine
        let missing = try docctl(["state", "get", "p.dkproj", "zoom"], in: directory)
        #expect(
            missing.status == 1 && missing.output.isEmpty && missing.standardError.isEmpty,
            "nothing stored: exit 1, silent")
        #expect(
            try docctl(["state", "list", "p.dkproj", "--json"], in: directory).output == """
                [
                  {
                    "default" : null,
                    "key" : "exportFormat",
                    "name" : "export.format",
                    "set" : true,
                    "value" : "tar.zst"
                  },
                  {
                    "default" : null,
                    "key" : "lastOpenedTask",
                    "name" : "task.last-opened",
                    "set" : false,
                    "value" : null
                  },
                  {
                    "default" : null,
                    "key" : "defaultRemote",
                    "name" : "remote.default",
                    "set" : false,
                    "value" : null
                  }
                ]

                """)
        try docctl(["state", "clear", "p.dkproj"], in: directory)
        #expect(try DocumentBundle(contentsOf: url).zip.entry(named: BundleEntry.state) == nil)
        #expect(
            try docctl(["validate", "--deep", "p.dkproj"], in: directory).output
                == "p.dkproj: ok (1 version, 2 objects, every digest checked)\n")
    }

    /// A remote folder given relative to where the command runs is remembered as the
    /// absolute path it names (as clone remembers one), so that a push run from another
    /// folder goes to the same remote; `s3://` addresses are kept as written.
    @Test func aRememberedRemoteFolderIsKeptAsTheFolderItNamed() throws {
        let directory = try TemporaryDirectory()
        _ = try newBundle(in: directory)
        let work = directory.url.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let set = try Run.docctl(["state", "set", "../p.dkproj", "remote.default", "../team/remote"], in: work)
        #expect(set.status == 0, "\(set.standardError)")
        let folder = directory.url.appendingPathComponent("team/remote").standardizedFileURL.path
        #expect(try docctl(["state", "get", "p.dkproj", "remote.default"], in: directory).output == "\(folder)\n")
        try docctl(["state", "set", "p.dkproj", "remote.default", "s3://team/projects"], in: directory)
        #expect(
            try docctl(["state", "get", "p.dkproj", "remote.default"], in: directory).output == "s3://team/projects\n")
    }

    @Test func aStateChangeMakesNoVersionAndLeavesTheDocumentAlone() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.write(Fixtures.noise(2_000_000), to: "big.bin", in: directory.url)
        let url = try newBundle(in: directory)
        try docctl(["attach", "p.dkproj", "big.bin"], in: directory)
        let log = try docctl(["log", "p.dkproj", "--json"], in: directory).output
        let document = try docctl(["cat", "p.dkproj"], in: directory).output
        // Appended: every entry kept is where it was, and what was superseded is swept.
        for (key, value) in [("task.last-opened", taskID), ("export.format", "zip")] {
            let before = try Data(contentsOf: url)
            try docctl(["state", "set", "p.dkproj", key, value], in: directory)
            try SweptAppend.expectSwept(before: before, after: url, in: directory)
        }
        #expect(try docctl(["log", "p.dkproj", "--json"], in: directory).output == log, "no version, the same head")
        #expect(try docctl(["cat", "p.dkproj"], in: directory).output == document)
        #expect(try ExternalTool.unzip.run(["-p", url.path, "document.json"]).output == document)
        let info = try docctl(["info", "p.dkproj"], in: directory).output
        #expect(info.contains("\nstate:     2 keys\n"), "\(info)")
        #expect(
            try docctl(["validate", "--deep", "p.dkproj"], in: directory).output
                == "p.dkproj: ok (2 versions, 6 objects, every digest checked)\n")
        #expect(Fixtures.listing(directory.url) == ["big.bin", "p.dkproj"])
    }

    @Test func aValueOfTheWrongTypeIsAUsageErrorThatWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        try docctl(["state", "set", "p.dkproj", "export.format", "zip"], in: directory)
        let before = try Fixtures.digest(of: url)
        expectFailure(
            try docctl(["state", "set", "p.dkproj", "export.format", "rar"], in: directory), status: 64,
            containing:
                "error: export.format: 'rar' is not one of zip, tar, tar.gz, tar.zst, dir, json, "
                + "bagit or html\n")
        expectFailure(
            try docctl(["state", "set", "p.dkproj", "exportFormat", "rar"], in: directory), status: 64,
            containing:
                "error: export.format: 'rar' is not one of zip, tar, tar.gz, tar.zst, dir, json, "
                + "bagit or html\n")
        expectFailure(
            try docctl(["state", "set", "p.dkproj", "task.last-opened", "tomorrow"], in: directory), status: 64,
            containing:
                "error: task.last-opened: 'tomorrow' is not a UUID (such as 6F9619FF-8B86-D011-B42D-00C04FC964FF)\n")
        expectFailure(
            try docctl(["state", "set", "p.dkproj", "", "x"], in: directory), status: 64,
            containing: "error: a state key must not be empty\n")
        expectFailure(
            try docctl(["state", "set", "p.dkproj", "zoom"], in: directory), status: 64,
            containing: "missing expected argument '<value>'")
        #expect(try Fixtures.digest(of: url) == before)
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"])
        expectFailure(
            try docctl(["state", "set", "nope.dkproj", "zoom", "1"], in: directory), status: 66,
            containing: "error: nope.dkproj: cannot open: No such file or directory\n")
    }

    @Test func aDamagedStateIsReportedNeverOverwrittenAndClearMendsIt() throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        try writeStateEntry(url, #"{"exportFormat": 42}"#)
        #expect(
            try docctl(["validate", "p.dkproj"], in: directory).status == 0,
            "a value of the wrong type is the application's business")
        expectFailure(
            try docctl(["state", "get", "p.dkproj", "export.format"], in: directory), status: 65,
            containing:
                """
                error: p.dkproj: key 'exportFormat': expected one of zip, tar, tar.gz, tar.zst, dir, json, \
                bagit or html, found 42 (a number)\n
                """
        )
        expectFailure(
            try docctl(["export", "p.dkproj", "-o", "out"], in: directory), status: 65, containing: "key 'exportFormat'"
        )
        #expect(
            try docctl(["state", "set", "p.dkproj", "export.format", "zip"], in: directory).status == 0,
            "set mends a value")

        for (text, message) in [
            ("[1, 2]", "expected a JSON object of bundle state, found an array"),
            (#"{"a": "#, "not valid JSON: unexpected end of input at line 1, column 7")
        ] {
            try writeStateEntry(url, text)
            let before = try Fixtures.digest(of: url)
            let validate = try docctl(["validate", "p.dkproj"], in: directory)
            #expect(validate.status == 1)
            #expect(
                validate.output == """
                    p.dkproj: 1 error
                      error state.invalid: entry 'state.json': \(message)

                    """)
            expectFailure(
                try docctl(["state", "list", "p.dkproj"], in: directory), status: 65,
                containing: "error: p.dkproj: entry 'state.json': \(message)\n")
            expectFailure(
                try docctl(["state", "set", "p.dkproj", "zoom", "2"], in: directory), status: 65,
                containing: "error: p.dkproj: entry 'state.json': \(message)\n")
            #expect(try Fixtures.digest(of: url) == before, "never overwritten")
            #expect(
                try docctl(["info", "p.dkproj"], in: directory).output.contains(
                    "\nstate:     unreadable (see docctl validate)\n"))
            #expect(
                try docctl(["set", "p.dkproj", "name", "Saved \(text.count)"], in: directory).status == 0,
                "saves still work, carrying it")
            #expect(try ExternalTool.unzip.run(["-p", url.path, "state.json"]).output == text)
            try docctl(["state", "clear", "p.dkproj"], in: directory)
            #expect(try docctl(["validate", "p.dkproj"], in: directory).status == 0)
        }

        // One byte over the limit, as a valid object.
        let oversize = #"{"a":""# + String(repeating: "x", count: (1 << 20) - 7) + #""}"#
        #expect(oversize.utf8.count == (1 << 20) + 1)
        try writeStateEntry(url, oversize)
        let validate = try docctl(["validate", "p.dkproj", "--json"], in: directory)
        #expect(validate.status == 1)
        #expect(validate.output.contains(#""code" : "state.invalid""#))
        #expect(validate.output.contains(#""message" : "state.json is larger than the limit of 1048576 bytes""#))
        expectFailure(
            try docctl(["state", "list", "p.dkproj"], in: directory), status: 65,
            containing: "error: p.dkproj: entry 'state.json': state.json is larger than the limit of 1048576 bytes\n")
        try docctl(["state", "clear", "p.dkproj"], in: directory)
        #expect(try docctl(["validate", "p.dkproj"], in: directory).status == 0)
    }

    @Test func exportUsesTheBundlesFormatBeforeTheUsersAndNeverWritesTheBundle() throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        let config = ["XDG_CONFIG_HOME": directory.path("config")]
        try docctl(["config", "set", "export.format", "json"], in: directory, environment: config)
        try docctl(["state", "set", "p.dkproj", "export.format", "zip"], in: directory)
        let before = try Fixtures.digest(of: url)
        let export = try docctl(["export", "p.dkproj", "-o", "out.zip", "--json"], in: directory, environment: config)
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.output.contains(#""format" : "zip""#), "the bundle's choice wins over the user's")
        #expect(
            try docctl(["export", "p.dkproj", "-o", "out.json", "--format", "json"], in: directory, environment: config)
                .status == 0,
            "--format wins over both")
        try docctl(["state", "unset", "p.dkproj", "export.format"], in: directory)
        let fallback = try docctl(
            ["export", "p.dkproj", "-o", "again.json", "--json"], in: directory, environment: config)
        #expect(fallback.output.contains(#""format" : "json""#), "then the user's")
        #expect(try Fixtures.digest(of: url) != before, "unset wrote the bundle")
        let unset = try Fixtures.digest(of: url)
        try docctl(["export", "p.dkproj", "-o", "third.json"], in: directory, environment: config)
        #expect(try Fixtures.digest(of: url) == unset, "an export only reads its bundle")
        #expect(
            Fixtures.listing(directory.url) == ["again.json", "config", "out.json", "out.zip", "p.dkproj", "third.json"]
        )
    }

    /// Four processes, each setting its own key 20 times, all at once: every write takes
    /// the bundle's lock and re-reads the state, so each key ends at its writer's last value.
    @Test func fourProcessesSettingAtOnceLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        let versions = try DocumentBundle(contentsOf: url).manifest
        let writers = try (0..<4).map { index -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "for i in $(seq 1 20); do \"$0\" state set p.dkproj writer\(index) \"$i\" || exit 1; done",
                Run.docctlURL.path
            ]
            process.environment = Run.environment
            process.currentDirectoryURL = directory.url
            try process.run()
            return process
        }
        for writer in writers {
            writer.waitUntilExit(deadline: "20 docctl state set")
            #expect(writer.terminationStatus == 0)
        }
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(
            try bundle.storedState() == [
                "writer0": .integer(20), "writer1": .integer(20), "writer2": .integer(20), "writer3": .integer(20)
            ])
        #expect(try bundle.manifest == versions, "80 state changes, no version")
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"])
    }

    @Test func helpListsTheKnownState() throws {
        let help = try Run.docctl(["state", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(
            help.output.hasPrefix(
                """
                OVERVIEW: Show and change a bundle's state: what to remember about it that is
                not the document.

                The state is kept in the bundle (its state.json), outside its history: changing
                it makes no version and leaves the document as it is, and saves keep it. Known
                state:

                  export.format     the format 'docctl export' writes when given no --format
                                    one of: zip, tar, tar.gz, tar.zst, dir, json, bagit, html
                  task.last-opened  the id of the task last open in this bundle
                  remote.default    the remote push and pull use when given none; clone sets it

                """), "\(help.output)")
        for command in ["list", "get", "set", "unset", "clear"] {
            let result = try Run.docctl(["state", command, "--help"])
            #expect(
                result.status == 0 && result.output.contains("USAGE: docctl state \(command) <bundle>"), "\(command)")
        }
    }
}
