import ArgumentParser
import DocumentKit
import Foundation

/// docctl's commands, as a library: an app ships a command-line tool for its own
/// document types with one call.
///
/// ```swift
/// // Sources/notectl/main.swift
/// import DocumentKitCLI
/// DocumentTool.run(name: "notectl", types: [Note.self])
/// ```
///
/// The commands that read, validate, export, prune and restore work on any DocumentKit
/// bundle; those that edit (`set`, `unset`, `edit`, `attach`, `migrate`, `import`, `new`)
/// work on the registered `types`, with their schemas, migrations and rules. `new` and
/// `import` create a bundle of the first type.
public struct DocumentTool: ParsableCommand {
    /// The name the tool is run as, in its help and messages.
    static var name: String { ToolSetup.name }

    // Every command names itself (`commandName`), although ArgumentParser would derive the
    // same name from its type: deriving it looks up how each command type describes itself,
    // a scan of every protocol conformance in the process, which cost about 2 ms of each
    // run (`docctl cat` of a 7.7 MB document took 24 ms).
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: name,
            abstract: "Open, edit, export and validate DocumentKit bundles.",
            discussion: """
                Exit status: 0 success, 1 validation found errors or an edit was aborted, \
                64 usage, 65 malformed or invalid input, 66 missing input, 70 internal error, \
                69 remote unreachable, 73 cannot create output, 74 I/O error, 75 locked or changed by another writer \
                (or a remote moved on: pull, then push), 77 credentials refused. `\(name) --version` \
                prints the version.
                """,
            subcommands: [
                New.self, Info.self, Ls.self, Cat.self, Get.self, Set.self, Unset.self, Edit.self, Attach.self,
                Extract.self,
                Log.self, Show.self, Diff.self, Restore.self, Prune.self, Pack.self, Pull.self, Push.self, Clone.self,
                Archive.self, Migrate.self, Export.self, Import.self, Validate.self, Verify.self, Key.self, Config.self,
                State.self
            ])
    }

    public init() {}

    /// Runs the tool named `name` (as its users type it) over the document `types`, the
    /// first of which `new` and `import` create, with the process's arguments; exits with
    /// the status of the outcome. `s3` opens `s3://` remotes; without it, commands on one
    /// are handed to the helper program `NAME-s3` beside the tool, built with it.
    public static func run(name: String, types: [any CodableDocument.Type], s3: S3RemoteOpener? = nil) -> Never {
        ToolSetup.start(name: name, types: types, s3: s3)
        if s3 != nil {
            // With the HTTP client's threads, large transient buffers (upload parts, request
            // chunks) must go back to the system when freed. Only here: for a tool without
            // them, mapping every buffer over 2 MiB on its own made rebuilding a version
            // from a long delta chain 7 times slower (each step's document is such a buffer).
            LargeAllocations.returnToSystem(atLeast: 2 << 20)
        }
        main()
        Foundation.exit(0)
    }

    /// The type `new` and `import` create: the first the tool was given.
    static func newDocumentType() throws -> any CodableDocument.Type {
        guard let type = DocumentKitConfiguration.current.documentTypes.first else {
            throw DocumentKitError(.usage, "\(name) was built without a document type to create")
        }
        return type
    }

    /// Parses and runs the command; every failure ends as one `error: …` line on stderr
    /// and the sysexits status of its cause. Help and --version print as usual.
    public static func main() {
        // Past a file-size limit (`ulimit -f`) a write should fail with EFBIG, which a save
        // reports and undoes, rather than kill the process halfway through the save.
        signal(SIGXFSZ, SIG_IGN)
        // Ctrl-C, SIGTERM or a closed terminal: the temporaries this run made are removed
        // (by the library) before one line says so (issue 23).
        Interruption.install { _, written in Console.printError(InterruptionText.line(written)) }
        let environment = ProcessInfo.processInfo.environment
        applyEnvironment(environment)
        configuration(from: environment, types: ToolSetup.types).apply(parseAndRun)
    }

    /// Parses the process's arguments and runs the command, under the tool's configuration.
    private static func parseAndRun() {
        let arguments = LogCountShorthand.expanded(Array(CommandLine.arguments.dropFirst()))
        if let message = unknownCommandMessage(in: arguments) { Console.fail(message, status: 64) }
        do {
            var command: ParsableCommand
            do {
                command = try parseAsRoot(arguments)
            } catch  where asksForToolVersion(arguments) {
                // `--version` anywhere prints the tool's version, except where it names the
                // version a command reads (`cat B --version 3`): there the line parses.
                // It is not an ArgumentParser flag, which would take `cat --version 3` too.
                Console.print(DocumentKitInfo.version)
                return
            }
            try runShowingProgress(&command)
        } catch let error as DocumentKitError {
            Console.fail(error.described(byTool: name), status: error.exitStatus)
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let status = exitCode(for: error)
            guard status != .success else { exit(withError: error) }
            let text = UsageErrorText.oneLine(fullMessage(for: error))
            // A usage error points to the help of the command that was mistyped, which
            // lists its options. Any other error that is no DocumentKitError (one the
            // library let through) is an internal error, not the user's typing.
            guard status == .validationFailure else { Console.fail(text, status: 70) }
            Console.fail("\(text) (see '\(commandPath(in: arguments)) --help')", status: 64)
        }
    }

    /// Runs `command`, drawing its progress on a terminal (``ProgressDisplay``).
    private static func runShowingProgress(_ command: inout ParsableCommand) throws {
        guard let display = ProgressDisplay.forTerminal(environment: ProcessInfo.processInfo.environment) else {
            return try command.run()
        }
        ProgressDisplay.current = display
        defer { display.clear() }
        try WorkProgress.reporting(to: { display.report($0) }) { try command.run() }
    }

    /// Whether `--version` stands among `arguments` (before a `--` that ends the options).
    private static func asksForToolVersion(_ arguments: [String]) -> Bool {
        arguments.prefix { $0 != "--" }.contains("--version")
    }

    /// The command `arguments` run, as its help names it (`docctl config list`): the tool's
    /// name and the subcommand names that lead the arguments.
    static func commandPath(in arguments: [String]) -> String {
        var command: any ParsableCommand.Type = DocumentTool.self
        var path = name
        for argument in arguments {
            guard
                let next = command.configuration.subcommands.first(where: { $0.configuration.commandName == argument })
            else { break }
            command = next
            path += " \(argument)"
        }
        return path
    }

    /// The error for a command name that names none (`docctl lgo`), with the closest one;
    /// ArgumentParser would report it only as unexpected arguments.
    private static func unknownCommandMessage(in arguments: [String]) -> String? {
        var command: any ParsableCommand.Type = DocumentTool.self
        var path = name
        for argument in arguments {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty, !argument.hasPrefix("-") else { return nil }
            if command == DocumentTool.self, argument == "help" { return nil }
            guard let next = subcommands.first(where: { $0.configuration.commandName == argument }) else {
                let names = subcommands.compactMap { $0.configuration.commandName }
                let suggestion =
                    CommandSuggestion.closest(to: argument, among: names).map { "; did you mean '\($0)'?" } ?? ""
                return "'\(argument)' is not a \(path) command\(suggestion) (see '\(path) --help')"
            }
            command = next
            path += " \(argument)"
        }
        return nil
    }
}
