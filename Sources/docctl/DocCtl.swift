import ArgumentParser
import DocumentKit
import Foundation

@main
struct DocCtl: ParsableCommand {
    // Every command names itself (`commandName`), although ArgumentParser would derive the
    // same name from its type: deriving it looks up how each command type describes itself,
    // a scan of every protocol conformance in the process, which cost about 2 ms of each
    // run (`docctl cat` of a 7.7 MB document took 24 ms).
    static let configuration = CommandConfiguration(
        commandName: "docctl",
        abstract: "Open, edit, export and validate DocumentKit bundles.",
        discussion: """
            Exit status: 0 success, 1 validation found errors or an edit was aborted, \
            64 usage, 65 malformed or invalid input, 66 missing input, 70 internal error, \
            73 cannot create output, 74 I/O error, 75 locked or changed by another writer. `docctl --version` \
            prints the version.
            """,
        subcommands: [New.self, Info.self, Cat.self, Get.self, Set.self, Unset.self, Edit.self, Attach.self, Extract.self,
                      Log.self, Diff.self, Restore.self, Prune.self, Migrate.self, Export.self, Import.self, Validate.self, Config.self, State.self])

    /// Parses and runs the command; every failure ends as one `error: …` line on stderr
    /// and the sysexits status of its cause. Help and --version print as usual.
    static func main() {
        // `docctl --version` is handled here rather than as an ArgumentParser flag: a root
        // flag is parsed anywhere on the line and would swallow `cat --version 3`.
        // Past a file-size limit (`ulimit -f`) a write should fail with EFBIG, which a save
        // reports and undoes, rather than kill the process halfway through the save.
        signal(SIGXFSZ, SIG_IGN)
        if Array(CommandLine.arguments.dropFirst()) == ["--version"] {
            Console.print(DocumentKitInfo.version)
            return
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as DocumentKitError {
            Console.fail(error.description, status: error.exitStatus)
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let status = exitCode(for: error)
            guard status != .success else { exit(withError: error) }
            let message = fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            let text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
            Console.fail("\(text.prefix(1).lowercased())\(text.dropFirst()) (see 'docctl --help')", status: status == .validationFailure ? 64 : status.rawValue)
        }
    }
}
