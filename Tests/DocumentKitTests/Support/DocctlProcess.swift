import Foundation
import Testing

/// A docctl run as a child process that a test can stop, continue or kill at any moment,
/// unlike `Run.docctl`, which waits for it.
///
/// `shell` is a `/bin/sh` command run first, in the same process, such as `umask 077` or
/// `ulimit -f 100`; docctl then replaces the shell (`exec`), so the process id is docctl's.
final class DocctlProcess {
    /// What the process left when it ended.
    struct Outcome {
        /// The exit status, or the signal that ended it.
        var status: Int32
        /// Whether a signal ended it (`status` is then the signal).
        var signaled: Bool
        var standardError: String
    }

    private let process = Process()
    /// Its error output goes to a file, which a test can read while it runs.
    private let scratch: TemporaryDirectory
    private var errorPath: String { scratch.path("stderr") }
    private let watchdog: ProcessDeadline.Watchdog
    private let command: String

    /// Starts docctl with `arguments` in `directory`, in `Run.environment` plus `environment`,
    /// reading `standardInput` (by default nothing).
    init(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], shell: String? = nil,
        standardInput: FileHandle = .nullDevice
    ) throws {
        process.environment = Run.environment.merging(environment) { $1 }
        process.currentDirectoryURL = directory
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(shell) && exec \"$0\" \"$@\"", Run.docctlURL.path] + arguments
        } else {
            process.executableURL = Run.docctlURL
            process.arguments = arguments
        }
        process.standardInput = standardInput
        process.standardOutput = FileHandle.nullDevice
        scratch = try TemporaryDirectory("docctl-process")
        _ = FileManager.default.createFile(atPath: scratch.path("stderr"), contents: nil)
        process.standardError = try FileHandle(forWritingTo: scratch.url.appendingPathComponent("stderr"))
        command = (["docctl"] + arguments).joined(separator: " ")
        try process.run()
        watchdog = ProcessDeadline.watch(process)
    }

    /// What it has written to its error output so far.
    var standardErrorSoFar: String {
        String(decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self)
    }

    /// Waits until its error output contains `text`; returns `false` when it ended first,
    /// or after ``ProcessDeadline/seconds``.
    func waitForStandardError(containing text: String) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(ProcessDeadline.seconds)
        while clock.now < deadline {
            if standardErrorSoFar.contains(text) { return true }
            guard process.isRunning else { return standardErrorSoFar.contains(text) }
            usleep(2_000)
        }
        return false
    }

    /// The process id.
    var identifier: pid_t { process.processIdentifier }

    /// Whether it is still running (a stopped process is running).
    var isRunning: Bool { process.isRunning }

    /// Sends `signal` (SIGKILL, SIGSTOP, SIGCONT).
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits until the kernel has stopped it (after SIGSTOP, which is delivered
    /// asynchronously): until then it may still be writing. Gives up after 5 s, or when it
    /// ended meanwhile.
    func waitUntilStopped() {
        let statPath = "/proc/\(process.processIdentifier)/stat"
        for _ in 0..<5_000 {
            // The state is the field after the command name's closing parenthesis.
            guard let text = try? String(contentsOfFile: statPath, encoding: .utf8),
                let close = text.lastIndex(of: ")")
            else { return }
            let state = text[text.index(after: close)...].drop { $0 == " " }.first
            if state == "T" || state == "t" || state == "Z" { return }
            usleep(1_000)
        }
    }

    /// Waits for it to end; kills it, and records a failure, when it has run for longer
    /// than ``ProcessDeadline/seconds``.
    func wait(sourceLocation: SourceLocation = #_sourceLocation) -> Outcome {
        process.waitUntilExit()
        if watchdog.cancel() { ProcessDeadline.recordKill(of: command, sourceLocation: sourceLocation) }
        return Outcome(
            status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
            standardError: standardErrorSoFar)
    }

    /// Runs docctl and, as soon as a name `matching` appears in `folder` (polled every
    /// millisecond), stops it (SIGSTOP), calls `body` with the name, and lets it go on
    /// (SIGCONT). Returns the outcome and whether `body` ran: a process that ends before
    /// any such name appears is not stopped.
    static func stopping(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:], shell: String? = nil,
        whenNameIn folder: URL, matches: (String) -> Bool,
        _ body: (String) throws -> Void
    ) throws -> (outcome: Outcome, caught: Bool) {
        let process = try DocctlProcess(arguments, in: directory, environment: environment, shell: shell)
        var caught = false
        while process.isRunning, !caught {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if let name = names.first(where: matches) {
                process.send(SIGSTOP)
                process.waitUntilStopped()
                caught = true
                defer { process.send(SIGCONT) }
                try body(name)
            } else {
                usleep(1_000)
            }
        }
        return (process.wait(), caught)
    }
}
