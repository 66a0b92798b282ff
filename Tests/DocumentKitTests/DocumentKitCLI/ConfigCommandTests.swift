import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// `docctl config` run as a real process, with a settings folder of the test's own:
/// output, exit statuses and the preferences file checked exactly.
@Suite struct ConfigCommandTests {
    /// Runs docctl with `XDG_CONFIG_HOME` in `directory`.
    @discardableResult
    private func docctl(
        _ arguments: [String], in directory: TemporaryDirectory,
        environment: [String: String] = [:]
    ) throws -> ExternalTool.Result {
        try Run.docctl(
            arguments, in: directory.url,
            environment: ["XDG_CONFIG_HOME": directory.path("config")].merging(environment) { $1 })
    }

    private func preferencesPath(_ directory: TemporaryDirectory) -> String {
        directory.path("config/docctl/preferences.json")
    }

    @Test func setGetUnsetAndListPrintExactly() throws {
        let directory = try TemporaryDirectory()
        for (key, value) in [
            ("author.name", "Ada Lovelace"), ("export.format", "tar.zst"), ("author.email", "ada@example.org")
        ] {
            let set = try docctl(["config", "set", key, value], in: directory)
            #expect(set.status == 0 && set.output.isEmpty && set.standardError.isEmpty, "\(set.standardError)")
        }
        #expect(
            try String(contentsOfFile: preferencesPath(directory), encoding: .utf8) == """
                {
                  "authorEmail" : "ada@example.org",
                  "authorName" : "Ada Lovelace",
                  "exportFormat" : "tar.zst"
                }

                """)
        #expect(try docctl(["config", "get", "author.name"], in: directory).output == "Ada Lovelace\n")
        #expect(try docctl(["config", "get", "compression"], in: directory).output == "zstd\n", "the default")
        #expect(
            try docctl(["config", "list"], in: directory).output == """
                author.name          Ada Lovelace
                author.email         ada@example.org
                export.format        tar.zst
                compression          zstd (default)
                format-version       3 (default)
                remote.timeout       60 (default)
                remote.retries       8 (default)
                remote.retry-budget  100 (default)
                remote.jobs          8 (default)

                """)
        #expect(
            try docctl(["config", "get", "export.format", "--json"], in: directory).output == """
                {
                  "default" : null,
                  "key" : "exportFormat",
                  "name" : "export.format",
                  "set" : true,
                  "value" : "tar.zst"
                }

                """)
        try docctl(["config", "unset", "author.email"], in: directory)
        try docctl(["config", "unset", "author.email"], in: directory)  // unsetting twice is fine
        #expect(
            try docctl(["config", "list", "--json"], in: directory).output == """
                [
                  {
                    "default" : null,
                    "key" : "authorName",
                    "name" : "author.name",
                    "set" : true,
                    "value" : "Ada Lovelace"
                  },
                  {
                    "default" : null,
                    "key" : "authorEmail",
                    "name" : "author.email",
                    "set" : false,
                    "value" : null
                  },
                  {
                    "default" : null,
                    "key" : "exportFormat",
                    "name" : "export.format",
                    "set" : true,
                    "value" : "tar.zst"
                  },
                  {
                    "default" : "zstd",
                    "key" : "compression",
                    "name" : "compression",
                    "set" : false,
                    "value" : "zstd"
                  },
                  {
                    "default" : 3,
                    "key" : "formatVersion",
                    "name" : "format-version",
                    "set" : false,
                    "value" : 3
                  },
                  {
                    "default" : 60,
                    "key" : "remoteTimeout",
                    "name" : "remote.timeout",
                    "set" : false,
                    "value" : 60
                  },
                  {
                    "default" : 8,
                    "key" : "remoteRetries",
                    "name" : "remote.retries",
                    "set" : false,
                    "value" : 8
                  },
                  {
                    "default" : 100,
                    "key" : "remoteRetryBudget",
                    "name" : "remote.retry-budget",
                    "set" : false,
                    "value" : 100
                  },
                  {
                    "default" : 8,
                    "key" : "remoteJobs",
                    "name" : "remote.jobs",
                    "set" : false,
                    "value" : 8
                  }
                ]

                """)
        #expect(try docctl(["config", "list"], in: directory).output.contains("author.email         (not set)\n"))
        let unset = try docctl(["config", "get", "author.email"], in: directory)
        #expect(
            unset.status == 1 && unset.output.isEmpty && unset.standardError.isEmpty,
            "no value, no default: exit 1, silent")
        #expect(
            try docctl(["config", "get", "author.email", "--json"], in: directory).output.contains(#""value" : null"#))
    }

    @Test func helpListsTheSettingsAndWhereTheyAreKept() throws {
        let help = try Run.docctl(["config", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(
            help.output == """
                OVERVIEW: Show and change your settings: author, export format, compression.

                Settings are kept in $XDG_CONFIG_HOME/docctl/preferences.json
                (~/.config/docctl/preferences.json when XDG_CONFIG_HOME is unset). Known
                settings:

                  author.name          your name, as the author of the versions you save
                  author.email         your email, saved with your name as 'Name <email>'
                  export.format        the format 'docctl export' writes when given no --format
                                       one of: zip, tar, tar.gz, tar.zst, dir, json, bagit,
                                       html
                  compression          how saves store new objects: zstd where it pays, or none
                                       one of: zstd, none
                  format-version       the layout saves write: 3, or 2 (DocumentKit 0.3 reads)
                  remote.timeout       seconds an S3 request may go unanswered before a retry
                  remote.retries       how many times a failed S3 request is tried again
                  remote.retry-budget  the most retries of all of a command's S3 requests
                  remote.jobs          how many files push, clone and pull move at once

                USAGE: docctl config <subcommand>

                OPTIONS:
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  get                     Print a setting's value, or its default.
                  set                     Set a setting.
                  unset                   Remove a setting's value, so that its default applies.
                  list                    List every setting with its value or default.

                  See 'docctl help config <subcommand>' for detailed help.

                """)
        for command in ["get", "set", "unset", "list"] {
            let result = try Run.docctl(["config", command, "--help"])
            #expect(result.status == 0 && result.output.contains("USAGE: docctl config \(command)"), "\(command)")
        }
    }

    @Test func unknownKeysAndValuesOfTheWrongTypeAreUsageErrorsThatChangeNothing() throws {
        let directory = try TemporaryDirectory()
        try docctl(["config", "set", "export.format", "zip"], in: directory)
        let before = try Fixtures.digest(of: URL(fileURLWithPath: preferencesPath(directory)))
        let known =
            """
            (known: author.name, author.email, export.format, compression, format-version, remote.timeout, \
            remote.retries, remote.retry-budget, remote.jobs)
            """
        expectFailure(
            try docctl(["config", "get", "author"], in: directory), status: 64,
            containing: "error: unknown setting 'author' \(known)\n")
        expectFailure(
            try docctl(["config", "set", "user.name", "Ada"], in: directory), status: 64,
            containing: "error: unknown setting 'user.name' \(known)\n")
        expectFailure(
            try docctl(["config", "unset", "editor"], in: directory), status: 64, containing: "unknown setting 'editor'"
        )
        expectFailure(
            try docctl(["config", "set", "export.format", "rar"], in: directory), status: 64,
            containing:
                "error: export.format: 'rar' is not one of zip, tar, tar.gz, tar.zst, dir, json, "
                + "bagit or html\n")
        expectFailure(
            try docctl(["config", "set", "compression", "gzip"], in: directory), status: 64,
            containing: "error: compression: 'gzip' is not one of zstd or none\n")
        expectFailure(
            try docctl(["config", "set", "author.name", " "], in: directory), status: 64,
            containing: "error: author.name: the value must not be blank (use 'unset' to remove it)\n")
        expectFailure(
            try docctl(["config", "set", "author.name"], in: directory), status: 64,
            containing: "missing expected argument '<value>'")
        #expect(try Fixtures.digest(of: URL(fileURLWithPath: preferencesPath(directory))) == before)
        #expect(Fixtures.listing(directory.url.appendingPathComponent("config/docctl")) == ["preferences.json"])
    }

    @Test func aStoredValueOfTheWrongTypeNamesFileKeyAndTypeAndSetMendsIt() throws {
        let directory = try TemporaryDirectory()
        let path = preferencesPath(directory)
        try FileManager.default.createDirectory(
            atPath: directory.path("config/docctl"), withIntermediateDirectories: true)
        try Data(#"{"authorName": 42, "exportFormat": "rar"}"#.utf8).write(to: URL(fileURLWithPath: path))
        expectFailure(
            try docctl(["config", "get", "author.name"], in: directory), status: 65,
            containing: "error: \(path): key 'authorName': expected a string, found 42 (a number)\n")
        expectFailure(try docctl(["config", "list"], in: directory), status: 65, containing: "key 'authorName'")
        expectFailure(
            try docctl(["config", "get", "export.format"], in: directory), status: 65,
            containing:
                """
                error: \(path): key 'exportFormat': expected one of zip, tar, tar.gz, tar.zst, dir, json, bagit or html, \
                found \"rar\" (a string)\n
                """
        )
        #expect(
            try docctl(["config", "get", "compression"], in: directory).output == "zstd\n", "other settings still read")
        #expect(try docctl(["config", "set", "author.name", "Ada"], in: directory).status == 0)
        #expect(try docctl(["config", "unset", "export.format"], in: directory).status == 0)
        #expect(try docctl(["config", "list"], in: directory).status == 0)
    }

    @Test func aMalformedFileIsRefusedAndLeftAsItIs() throws {
        let directory = try TemporaryDirectory()
        let path = preferencesPath(directory)
        try FileManager.default.createDirectory(
            atPath: directory.path("config/docctl"), withIntermediateDirectories: true)
        let text = "{\"authorName\": \"Ada\",\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let message = "error: \(path): not valid JSON: expected a member name in quotes at line 2, column 1\n"
        expectFailure(try docctl(["config", "list"], in: directory), status: 65, containing: message)
        expectFailure(
            try docctl(["config", "set", "author.name", "Bob"], in: directory), status: 65, containing: message)
        expectFailure(try docctl(["config", "unset", "author.name"], in: directory), status: 65, containing: message)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(Fixtures.listing(directory.url.appendingPathComponent("config/docctl")) == ["preferences.json"])
    }

    @Test func aNewFileHasTheModeOfTheUmask() throws {
        let directory = try TemporaryDirectory()
        let result = try ExternalTool(name: "sh").run(
            ["-c", "umask 077 && \"$1\" config set author.name Ada", "sh", Run.docctlURL.path],
            environment: ["XDG_CONFIG_HOME": directory.path("config"), "PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.standardError)")
        var info = stat()
        stat(preferencesPath(directory), &info)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    /// Two processes, each setting its own key 50 times, all at once: every write locks,
    /// re-reads and changes only its key, so each key ends at its writer's last value.
    @Test func twoProcessesSettingAtOnceLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let writers = try [("author.name", "name"), ("author.email", "email")].map { key, word -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = [
                "-c", "for i in $(seq 1 50); do \"$0\" config set \(key) \"\(word) $i\" || exit 1; done",
                Run.docctlURL.path
            ]
            process.environment = TestEnvironment.clean(adding: ["XDG_CONFIG_HOME": directory.path("config")])
            try process.run()
            return process
        }
        for writer in writers {
            writer.waitUntilExit(deadline: "50 docctl config set")
            #expect(writer.terminationStatus == 0)
        }
        let values = try PreferencesFile(url: URL(fileURLWithPath: preferencesPath(directory))).storedValues()
        #expect(values == ["authorName": .string("name 50"), "authorEmail": .string("email 50")])
        #expect(Fixtures.listing(directory.url.appendingPathComponent("config/docctl")) == ["preferences.json"])
    }

    /// `--author`, else the configured author (`Name <email>`), else the login name.
    @Test func authorsComeFromTheOptionElseTheSettingsElseTheLoginName() throws {
        let directory = try TemporaryDirectory()
        let login = Authorship.loginName()
        func authors() throws -> [String] {
            let log = try docctl(["log", "p.dkproj", "--json"], in: directory)
            return try JSONDecoder().decode([VersionSummary].self, from: log.standardOutput).map(\.author).reversed()
        }
        try docctl(["new", "p.dkproj"], in: directory)
        try docctl(["config", "set", "author.name", "Ada Lovelace"], in: directory)
        try docctl(["set", "p.dkproj", "name", "a"], in: directory)
        try docctl(["config", "set", "author.email", "ada@example.org"], in: directory)
        try docctl(["set", "p.dkproj", "name", "b"], in: directory)
        try docctl(["set", "p.dkproj", "name", "c", "--author", "Charles Babbage"], in: directory)
        try docctl(["config", "unset", "author.name"], in: directory)
        try docctl(["set", "p.dkproj", "name", "d"], in: directory)
        try docctl(["config", "unset", "author.email"], in: directory)
        try docctl(["set", "p.dkproj", "name", "e"], in: directory)
        #expect(
            try authors() == [
                login, "Ada Lovelace", "Ada Lovelace <ada@example.org>", "Charles Babbage",
                "\(login) <ada@example.org>", login
            ])

        // Settings that cannot be read are reported, not replaced by the login name; an
        // explicit author needs none.
        try Data("[]".utf8).write(to: URL(fileURLWithPath: preferencesPath(directory)))
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj"))
        expectFailure(
            try docctl(["set", "p.dkproj", "name", "f"], in: directory), status: 65,
            containing: "error: \(preferencesPath(directory)): expected a JSON object of preferences, found an array\n")
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj")) == before)
        #expect(try docctl(["set", "p.dkproj", "name", "f", "--author", "Ada"], in: directory).status == 0)
    }

    @Test func exportUsesTheConfiguredFormatWhenGivenNone() throws {
        let directory = try TemporaryDirectory()
        try docctl(["new", "p.dkproj", "--name", "Garden"], in: directory)
        expectFailure(
            try docctl(["export", "p.dkproj", "-o", "out"], in: directory), status: 64,
            containing:
                """
                error: no export format given: use --format, an output ending in .zip, .tar, .tar.gz, .tar.zst or \
                .html (a site), or set one (docctl config set export.format FORMAT)\n
                """
        )
        try docctl(["config", "set", "export.format", "json"], in: directory)
        let export = try docctl(["export", "p.dkproj", "-o", "out.json", "--json"], in: directory)
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.output.contains(#""format" : "json""#))
        #expect(
            try docctl(["export", "p.dkproj", "-o", "out.zip", "--format", "zip"], in: directory).status == 0,
            "--format wins")
        #expect(Fixtures.listing(directory.url) == ["config", "out.json", "out.zip", "p.dkproj"])
    }
}
