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
    /// How the editor's process ended: `exited(0)` means the user saved (or left) the file.
    public typealias Termination = ProcessTermination

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

    /// Runs the editor on `file` and waits for it, as a ``ChildProcess`` that shares this
    /// process's terminal and environment (and leaves Ctrl-C to the editor).
    public func edit(_ file: URL) throws -> Termination {
        let arguments = ["/bin/sh", "-c", "\(command) \"$@\"", command, file.path]
        // The environment is passed from Foundation's copy: Swift 6 refuses to read the C
        // global `environ`, which any thread may change.
        return try ChildProcess.run(
            arguments, environment: ProcessInfo.processInfo.environment,
            describedAs: "the editor '\(command)'", path: file.path)
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
            return
                "the editor '\(editor.command)' could not be run (status 127: command not found; set VISUAL or EDITOR)"
        case .exited(let status):
            return "the editor '\(editor.command)' exited with status \(status)"
        case .signaled(let number):
            return
                "the editor '\(editor.command)' was killed by signal \(number) (\(String(cString: strsignal(number))))"
        }
    }
}
