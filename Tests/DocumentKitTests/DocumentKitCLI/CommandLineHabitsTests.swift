import DocumentKit
import Foundation
import Testing

@testable import DocumentKitCLI

/// The habits of Unix tools docctl keeps: suggestions for typos, `--version` anywhere,
/// `--quiet`, `--dry-run`, `--json` on every command that prints.
@Suite struct CommandLineHabitsTests {
    @Test func aMistypedCommandGetsTheClosestOne() throws {
        let cases: [([String], String)] = [
            (
                ["lgo", "garden.dkproj"],
                "error: 'lgo' is not a docctl command; did you mean 'log'? (see 'docctl --help')\n"
            ),
            (
                ["vali", "garden.dkproj"],
                "error: 'vali' is not a docctl command; did you mean 'validate'? (see 'docctl --help')\n"
            ),
            (["exprot"], "error: 'exprot' is not a docctl command; did you mean 'export'? (see 'docctl --help')\n"),
            (
                ["config", "lsit"],
                "error: 'lsit' is not a docctl config command; did you mean 'list'? (see 'docctl config --help')\n"
            ),
            (["xyzzy"], "error: 'xyzzy' is not a docctl command (see 'docctl --help')\n")
        ]
        for (arguments, line) in cases {
            let result = try Run.docctl(arguments)
            #expect(
                result.status == 64 && result.standardError == line && result.output.isEmpty,
                "\(arguments): \(result.standardError)")
        }
        // A mistyped option: ArgumentParser's suggestion, on the one line.
        let option = try Run.docctl(["log", "garden.dkproj", "--jsno"])
        #expect(
            option.standardError == "error: unknown option '--jsno'. Did you mean '--json'? (see 'docctl log --help')\n"
        )
    }

    /// A usage error names the help of the command it was in, which lists that command's options.
    @Test func usageErrorsPointToTheCommandsOwnHelp() throws {
        let cases: [([String], String)] = [
            (
                ["log", "p.dkproj", "--jsno"],
                "error: unknown option '--jsno'. Did you mean '--json'? (see 'docctl log --help')\n"
            ),
            (["log"], "error: missing expected argument '<bundle>' (see 'docctl log --help')\n"),
            (["config", "list", "--bogus"], "error: unknown option '--bogus' (see 'docctl config list --help')\n"),
            (["--bogus"], "error: unknown option '--bogus' (see 'docctl --help')\n")
        ]
        for (arguments, line) in cases {
            let result = try Run.docctl(arguments)
            #expect(
                result.status == 64 && result.standardError == line && result.output.isEmpty,
                "\(arguments): \(result.standardError)")
        }
    }

    @Test func closestCommandRanksBySmallEdits() {
        let names = ["log", "diff", "info", "validate", "verify", "set", "unset", "get"]
        #expect(CommandSuggestion.distance("lgo", "log") == 1, "a swap is one edit")
        #expect(CommandSuggestion.closest(to: "lgo", among: names) == "log")
        #expect(CommandSuggestion.closest(to: "va", among: names) == "validate", "a prefix only one command has")
        #expect(CommandSuggestion.closest(to: "ve", among: names) == "verify")
        #expect(CommandSuggestion.closest(to: "xet", among: names) == nil, "set and get are as close")
        #expect(CommandSuggestion.closest(to: "zzzzzz", among: names) == nil)
    }

    @Test func versionAnywhereUnlessItNamesABundleVersion() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        for arguments in [
            ["--version"], ["log", "garden.dkproj", "--version"], ["info", "--version"],
            ["cat", "garden.dkproj", "--version"], ["--version", "cat"]
        ] {
            let result = try Run.docctl(arguments, in: directory.url)
            #expect(
                result.status == 0 && result.output == "\(DocumentKitInfo.version)\n" && result.standardError.isEmpty,
                "\(arguments)")
        }
        let first = try Run.docctl(["cat", "garden.dkproj", "--version", "1"], in: directory.url)
        #expect(first.status == 0 && first.output.hasPrefix("{"), "cat --version 1 still reads version 1")
        #expect(first.output != (try Run.docctl(["cat", "garden.dkproj"], in: directory.url)).output)
        let afterDashes = try Run.docctl(["get", "garden.dkproj", "--", "--version"], in: directory.url)
        #expect(
            afterDashes.status == 65 && afterDashes.standardError.contains("--version"),
            "after --, --version is a path: \(afterDashes.standardError)")
    }

    @Test func catTakesJSONAndQuiet() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let plain = try Run.docctl(["cat", "garden.dkproj"], in: directory.url)
        #expect(
            try Run.docctl(["cat", "garden.dkproj", "--json"], in: directory.url).standardOutput == plain.standardOutput
        )
        let quiet = try Run.docctl(["cat", "garden.dkproj", "-q"], in: directory.url)
        #expect(quiet.status == 0 && quiet.output.isEmpty && quiet.standardError.isEmpty)
        let missing = try Run.docctl(["cat", "nothing.dkproj", "--quiet"], in: directory.url)
        #expect(missing.status == 66 && missing.output.isEmpty, "errors still print: \(missing.standardError)")
        #expect(missing.standardError.hasPrefix("error: nothing.dkproj: "))
    }

    @Test func quietEditsSaveAndPrintNothing() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let set = try Run.docctl(["set", "garden.dkproj", "name", "Quiet", "--quiet"], in: directory.url)
        #expect(set.status == 0 && set.output.isEmpty && set.standardError.isEmpty)
        #expect(try Run.docctl(["get", "garden.dkproj", "name"], in: directory.url).output == "Quiet\n")
        let validate = try Run.docctl(["validate", "-q", "garden.dkproj"], in: directory.url)
        #expect(validate.status == 0 && validate.output.isEmpty)
    }

    @Test func dryRunsCheckEverythingAndWriteNothing() throws {
        let directory = try TemporaryDirectory()
        let bundle = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Run.docctl(["export", "garden.dkproj", "-o", "garden.zip"], in: directory.url)
        let before = try Fixtures.digest(of: bundle)
        let set = try Run.docctl(["set", "garden.dkproj", "name", "Dry", "--dry-run"], in: directory.url)
        #expect(set.status == 0, "\(set.standardError)")
        let wet = try Run.docctl(["set", "garden.dkproj", "name", "Dry", "--dry-run", "--json"], in: directory.url)
        #expect(wet.output.contains(#""dryRun" : true"#) && wet.output.contains(#""saved" : false"#), "\(wet.output)")
        #expect(try Fixtures.digest(of: bundle) == before, "nothing written")
        // The real save makes exactly the version the dry run announced.
        let saved = try Run.docctl(["set", "garden.dkproj", "name", "Dry"], in: directory.url)
        #expect(
            set.output
                == saved.output.replacingOccurrences(of: "saved version", with: "would save version")
                .replacingOccurrences(of: "\n", with: "; nothing was written\n"), "\(set.output) / \(saved.output)")
        let refused = try Run.docctl(
            ["set", "garden.dkproj", "tasks[0].status", "finished", "--dry-run"], in: directory.url)
        #expect(refused.status == 65, "a dry run refuses what the save would: \(refused.standardError)")

        for arguments in [
            ["unset", "garden.dkproj", "tasks[0]"], ["restore", "garden.dkproj", "1"], ["new", "fresh.dkproj"],
            ["import", "garden.zip", "-o", "unused.dkproj"]
        ] {
            let after = try Fixtures.digest(of: bundle)
            let result = try Run.docctl(arguments + ["--dry-run"], in: directory.url)
            #expect(
                result.status == 0 && result.output.hasPrefix("would ")
                    && result.output.hasSuffix("; nothing was written\n"),
                "\(arguments): \(result.output) \(result.standardError)")
            #expect(try Fixtures.digest(of: bundle) == after, "\(arguments)")
        }
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj", "garden.zip"])
        let new = try Run.docctl(["new", "fresh.dkproj", "--name", "Fresh", "--dry-run"], in: directory.url)
        #expect(
            new.output.wholeMatch(
                of: #/would create fresh\.dkproj at version 1 \([0-9a-f]{12}\); nothing was written\n/#) != nil,
            "\(new.output)")
    }

    @Test func aDryPullWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let ours = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try FileManager.default.copyItem(at: ours, to: directory.url.appendingPathComponent("theirs.dkproj"))
        try Run.docctl(["set", "theirs.dkproj", "name", "Theirs"], in: directory.url)
        let before = try Fixtures.digest(of: ours)
        let pull = try Run.docctl(["pull", "garden.dkproj", "theirs.dkproj", "--dry-run"], in: directory.url)
        #expect(pull.status == 0)
        #expect(pull.output.hasPrefix("would fast-forward garden.dkproj to version 9 ("), "\(pull.output)")
        #expect(pull.output.hasSuffix("): 1 version from theirs.dkproj; nothing was written\n"), "\(pull.output)")
        #expect(try Fixtures.digest(of: ours) == before)
    }

    @Test func dryExportsAndPushesOnlyCount() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let export = try Run.docctl(["export", "garden.dkproj", "-o", "g.zip", "--dry-run"], in: directory.url)
        #expect(
            export.output
                == "would export version 8 of garden.dkproj to g.zip (zip, 2 files, 5.9 KB); nothing was written\n",
            "\(export.standardError)")
        let extract = try Run.docctl(
            ["extract", "garden.dkproj", "thumbnail", "-o", "t.png", "--dry-run"], in: directory.url)
        #expect(extract.output == "would write 4898 bytes to t.png; nothing was written\n", "\(extract.standardError)")
        expectFailure(
            try Run.docctl(
                ["extract", "garden.dkproj", "thumbnail", "-o", "garden.dkproj", "--dry-run"], in: directory.url),
            status: 73,
            containing: "error: garden.dkproj: already exists (use --force to replace it)\n")
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("remote"), withIntermediateDirectories: false)
        let first = try Run.docctl(["push", "garden.dkproj", "remote", "--dry-run"], in: directory.url)
        #expect(
            first.output
                == """
                would push garden.dkproj to remote: 8 new versions in v1, 4 files (3.4 KB) to send; nothing was \
                written\n
                """,
            "\(first.output) \(first.standardError)")
        #expect(Fixtures.listing(directory.url.appendingPathComponent("remote")) == [], "the remote stays empty")
        try Run.docctl(["push", "garden.dkproj", "remote"], in: directory.url)
        try Run.docctl(["set", "garden.dkproj", "name", "Next"], in: directory.url)
        let second = try Run.docctl(["push", "garden.dkproj", "remote", "--dry-run", "--json"], in: directory.url)
        #expect(
            second.output.contains(#""result" : "would-push""#) && second.output.contains(#""filesSent" : 2"#),
            "\(second.output)")
        #expect(
            try Run.docctl(["push", "garden.dkproj", "remote"], in: directory.url).output.contains(
                ": 1 new version in v2, 2 files ("))
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj", "remote"])

        let archive = try Run.docctl(["archive", "garden.dkproj", "ocfl", "--dry-run"], in: directory.url)
        #expect(
            archive.output.hasPrefix("would archive garden.dkproj to ocfl: object documentkit:"),
            "\(archive.output) \(archive.standardError)")
        #expect(
            archive.output.hasSuffix(", 9 new versions in v1, 5 files (4.0 KB) to store; nothing was written\n"),
            "\(archive.output)")
        let pack = try Run.docctl(["pack", "garden.dkproj", "-o", "packed.dkproj", "--dry-run"], in: directory.url)
        #expect(
            pack.output.hasPrefix("would pack garden.dkproj to packed.dkproj (9 versions, about "),
            "\(pack.output) \(pack.standardError)")
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj", "remote"], "no root, no copy")
    }

    @Test func drySettingsKeysAndClonesWriteNothing() throws {
        let directory = try TemporaryDirectory()
        let home = directory.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
        let environment = ["XDG_CONFIG_HOME": home.path]
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj"))
        let cases: [([String], String)] = [
            (
                ["config", "set", "author.name", "Ada", "--dry-run"],
                "would set author.name to Ada; nothing was written\n"
            ),
            (["config", "unset", "author.name", "--dry-run"], "would unset author.name; nothing was written\n"),
            (
                ["state", "set", "garden.dkproj", "export.format", "tar", "--dry-run"],
                "would set export.format to tar in garden.dkproj; nothing was written\n"
            ),
            (
                ["state", "unset", "garden.dkproj", "export.format", "--dry-run"],
                "would unset export.format in garden.dkproj; nothing was written\n"
            ),
            (
                ["state", "clear", "garden.dkproj", "--dry-run"],
                "would clear the state of garden.dkproj; nothing was written\n"
            ),
            (
                ["key", "new", "--dry-run"],
                "would make a signing key in \(home.path)/docctl/signing.key; nothing was written\n"
            )
        ]
        for (arguments, line) in cases {
            let result = try Run.docctl(arguments, in: directory.url, environment: environment)
            #expect(
                result.status == 0 && result.output == line, "\(arguments): \(result.output) \(result.standardError)")
        }
        expectFailure(
            try Run.docctl(
                ["config", "set", "export.format", "rar", "--dry-run"], in: directory.url, environment: environment),
            status: 64,
            containing:
                "error: export.format: 'rar' is not one of zip, tar, tar.gz, tar.zst, dir, json, "
                + "bagit or html\n")
        #expect(Fixtures.listing(home) == [], "no settings, no key")
        #expect(
            try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj")) == before, "no state written"
        )

        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("remote"), withIntermediateDirectories: false)
        try Run.succeeding(["push", "garden.dkproj", "remote"], in: directory.url)
        let clone = try Run.docctl(["clone", "remote", "-o", "copy.dkproj", "--dry-run"], in: directory.url)
        #expect(
            clone.output.wholeMatch(
                of:
                    #/would clone remote into copy\.dkproj: object documentkit:[0-9a-f]{64}, 8 versions; nothing was written\n/#
            ) != nil,
            "\(clone.output) \(clone.standardError)")
        expectFailure(
            try Run.docctl(["clone", "remote", "-o", "garden.dkproj", "--dry-run"], in: directory.url), status: 73,
            containing: "error: garden.dkproj: already exists (use --force to replace it)\n")
        #expect(Fixtures.listing(directory.url) == ["config", "garden.dkproj", "remote"])
        // An OCFL object imported: the object is read, no bundle made.
        let objects = try FileManager.default.subpathsOfDirectory(
            atPath: directory.url.appendingPathComponent("remote").path)
        let object = try #require(objects.first { $0.hasSuffix("/0=ocfl_object_1.1") }).dropLast(
            "/0=ocfl_object_1.1".count)
        let imported = try Run.docctl(
            ["import", "remote/\(object)", "-o", "copy.dkproj", "--dry-run"], in: directory.url)
        #expect(
            imported.output.wholeMatch(
                of:
                    #/would import remote/.+ into copy\.dkproj: 8 versions of object documentkit:[0-9a-f]{64}; nothing was written\n/#
            ) != nil,
            "\(imported.output) \(imported.standardError)")
        #expect(Fixtures.listing(directory.url) == ["config", "garden.dkproj", "remote"])
    }
}
