import Foundation
import Testing

/// scripts/install.sh, run into a temporary prefix with the docctl built beside the tests
/// (`--bin-dir`: a release build here would take minutes).
@Suite struct InstallScriptTests {
    static let script = Fixtures.repository.appendingPathComponent("scripts/install.sh").path
    static let binDirectory = Run.docctlURL.deletingLastPathComponent().path
    static let bash = ExternalTool(name: "bash")
    static let zsh = ExternalTool(name: "zsh")
    static let fish = ExternalTool(name: "fish")

    /// What install.sh installs, under a prefix.
    static let installed = [
        "bin/docctl", "bin/docctl-s3", "share/man/man1/docctl.1", "share/bash-completion/completions/docctl",
        "share/zsh/site-functions/_docctl", "share/fish/vendor_completions.d/docctl.fish"
    ]

    /// Runs install.sh with `arguments`, in an environment without PREFIX or DESTDIR unless given.
    static func install(_ arguments: [String], environment: [String: String] = [:]) throws -> ExternalTool.Result {
        var base = Run.environment
        base["PREFIX"] = nil
        base["DESTDIR"] = nil
        return try bash.run([script] + arguments, environment: base.merging(environment) { $1 })
    }

    // One installation serves every check of what it installed: each copies the tools
    // (about 140 MB of debug build).
    @Test func installsTheToolsTheManualAndCompletionsThatWork() throws {
        let directory = try TemporaryDirectory()
        let prefix = directory.path("usr")
        let result = try Self.install(["--prefix", prefix, "--bin-dir", Self.binDirectory])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        #expect(result.output == Self.installed.map { "installed \(prefix)/\($0)\n" }.joined())
        for tool in ["docctl", "docctl-s3"] {
            #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/\(tool)"), "\(tool)")
        }
        let page = try Data(contentsOf: URL(fileURLWithPath: "\(prefix)/share/man/man1/docctl.1"))
        #expect(page == (try Data(contentsOf: ManualPageTests.page)), "the committed man/docctl.1")
        let bashScript = "\(prefix)/\(Self.installed[3])"
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: bashScript))
                == (try Run.docctl(["--generate-completion-script", "bash"])).standardOutput)

        // As bash calls it for `docctl ex<TAB>` and `docctl export --fo<TAB>`: the function
        // the script registers, with the words so far.
        let completions = try Self.bash.run(
            [
                "-c",
                """
                source "$1" || exit 1
                complete -p docctl
                COMP_WORDS=(docctl ex); COMP_CWORD=1; COMP_LINE='docctl ex'; COMP_POINT=9
                _docctl docctl ex docctl; echo "${COMPREPLY[*]}"
                COMPREPLY=(); COMP_WORDS=(docctl export --fo); COMP_CWORD=2; COMP_LINE='docctl export --fo'; COMP_POINT=18
                _docctl docctl --fo export; echo "${COMPREPLY[*]}"
                """, "bash", bashScript
            ], environment: Run.environment)
        #expect(completions.status == 0 && completions.standardError.isEmpty, "stderr: \(completions.standardError)")
        #expect(completions.output == "complete -o filenames -F _docctl docctl\nextract export\n--force --format\n")

        // zsh and fish, where installed (CI has neither): the scripts parse.
        for (shell, file) in [(Self.zsh, Self.installed[4]), (Self.fish, Self.installed[5])] where shell.isAvailable {
            let check = try shell.run(["-n", "\(prefix)/\(file)"])
            #expect(check.status == 0, "\(shell.name) -n \(file): \(check.standardError)")
        }

        // Running it again replaces every file, and says so again.
        let again = try Self.install(["--prefix", prefix, "--bin-dir", Self.binDirectory])
        #expect(again.status == 0 && again.output == result.output, "stderr: \(again.standardError)")
    }

    @Test func destdirStagesUnderThePrefix() throws {
        let directory = try TemporaryDirectory()
        let stage = directory.path("stage")
        let result = try Self.install(
            ["--bin-dir", Self.binDirectory], environment: ["DESTDIR": stage, "PREFIX": "/opt/docctl"])
        #expect(result.status == 0, "stderr: \(result.standardError)")
        for file in Self.installed {
            #expect(FileManager.default.fileExists(atPath: "\(stage)/opt/docctl/\(file)"), "\(file)")
        }
        #expect(result.output.hasPrefix("installed \(stage)/opt/docctl/bin/docctl\n"))
    }

    @Test func refusesAFolderWithoutTheToolsAndUnknownArguments() throws {
        let directory = try TemporaryDirectory()
        let missing = try Self.install(["--prefix", directory.path("usr"), "--bin-dir", directory.url.path])
        #expect(missing.status == 66 && missing.standardError == "install.sh: no docctl in \(directory.url.path)\n")
        #expect(Fixtures.listing(directory.url).isEmpty, "nothing installed")
        let unknown = try Self.install(["--prefx", directory.path("usr")])
        #expect(unknown.status == 64 && unknown.standardError.contains("Usage: scripts/install.sh"))
        let help = try Self.install(["--help"])
        #expect(help.status == 0 && help.output.contains("--bin-dir DIR"))
    }
}
