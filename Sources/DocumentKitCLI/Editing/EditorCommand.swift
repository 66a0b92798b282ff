import DocumentKit
import Foundation

/// The user's text editor, as a shell command: `vi`, `code --wait`, `emacsclient -t`.
///
/// The command is chosen as git chooses it, from `$VISUAL`, else `$EDITOR`, else `vi`, and
/// run as git runs it, through `/bin/sh -c '<command> "$@"' <command> FILE`, so that a
/// command with arguments (or a quoted path) works as it does at a shell prompt.
///
/// ```swift
/// let termination = try EditorCommand.preferred().edit(fileURL)
/// guard termination == .exited(0) else { ... }   // the user abandoned the edit
/// ```
public struct EditorCommand: Sendable, Equatable {
    /// How the editor's process ended.
    public enum Termination: Sendable, Equatable {
        /// It exited with this status; `0` means the user saved (or left) the file.
        case exited(Int32)
        /// A signal killed it.
        case signaled(Int32)
    }

    /// The shell text that starts the editor; the file's path is appended as an argument.
    public var command: String

    /// An editor started by `command`, e.g. `nano` or `code --wait`.
    public init(_ command: String) {
        self.command = command
    }

    /// `$VISUAL`, else `$EDITOR`, else `vi`; a variable set to blanks counts as unset.
    public static func preferred(environment: [String: String] = ProcessInfo.processInfo.environment) -> EditorCommand {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.allSatisfy(\.isWhitespace) { return EditorCommand(value) }
        }
        return EditorCommand("vi")
    }

    /// Runs the editor on `file` and waits for it. It shares this process's terminal
    /// (standard input, output and error) and environment.
    ///
    /// While it runs, this process ignores SIGINT and SIGQUIT, as `system(3)` and git do:
    /// a Ctrl-C typed in the editor is the editor's to handle, and must not end the caller
    /// with the user's text in a file nobody reports. The editor itself starts with every
    /// signal at its default, whatever this process ignores (a caller may ignore SIGPIPE or
    /// SIGXFSZ, and ignored signals are otherwise inherited).
    public func edit(_ file: URL) throws -> Termination {
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        let process = try spawn(arguments: ["/bin/sh", "-c", "\(command) \"$@\"", command, file.path])
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 {
            guard errno == EINTR else { throw DocumentKitError.system("cannot wait for the editor", path: file.path, errno: errno) }
        }
        // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// Starts `arguments[0]` with `arguments` and this process's environment.
    private func spawn(arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGQUIT, SIGPIPE, SIGXFSZ, SIGCHLD] { sigaddset(&defaults, number) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        // The environment is passed from Foundation's copy: Swift 6 refuses to read the C
        // global `environ`, which any thread may change.
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var process: pid_t = 0
        let result = posix_spawn(&process, arguments[0], nil, &attributes, argv, envp)
        guard result == 0 else {
            throw DocumentKitError(.ioError, "cannot start the editor '\(command)': \(String(cString: strerror(result)))", path: arguments[0])
        }
        return process
    }
}

extension EditorCommand.Termination {
    /// Why the editor's end means the edit was abandoned, for messages: `'vi' exited with
    /// status 1`; `nil` when it exited normally.
    func failure(of editor: EditorCommand) -> String? {
        switch self {
        case .exited(0):
            return nil
        case .exited(126):
            return "the editor '\(editor.command)' could not be run (status 126: not executable; set VISUAL or EDITOR)"
        case .exited(127):
            return "the editor '\(editor.command)' could not be run (status 127: command not found; set VISUAL or EDITOR)"
        case .exited(let status):
            return "the editor '\(editor.command)' exited with status \(status)"
        case .signaled(let number):
            return "the editor '\(editor.command)' was killed by signal \(number) (\(String(cString: strsignal(number))))"
        }
    }
}
