import Foundation
import Synchronization
import Testing

/// How long any one process a test starts may run before it is killed: a lock bug or a
/// server that never answers then fails its test, naming the command, instead of hanging
/// the whole run. Generous for the slowest command of the suite on a busy two-core machine,
/// and longer under a sanitizer, whose checks make docctl several times slower.
enum ProcessDeadline {
    static let seconds: Double = 300 * (Sanitizer.thread ? 10 : Sanitizer.address ? 4 : 1)

    /// Kills `process` (SIGKILL) if it is still running `seconds` after this call, until
    /// the returned watchdog is cancelled; the watchdog says whether it fired.
    static func watch(_ process: Process, seconds: Double = seconds) -> Watchdog {
        let watchdog = Watchdog()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            watchdog.state.withLock { state in
                guard state == .watching else { return }
                state = .fired
                kill(pid, SIGKILL)
            }
        }
        return watchdog
    }

    /// A pending kill.
    final class Watchdog: Sendable {
        enum State { case watching, cancelled, fired }
        let state = Mutex(State.watching)

        /// Stops watching (the process ended); returns whether the kill came first.
        @discardableResult
        func cancel() -> Bool {
            state.withLock { state in
                if state == .watching { state = .cancelled }
                return state == .fired
            }
        }
    }

    /// Records a test failure for a process the deadline killed.
    static func recordKill(of command: String, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record(
            "\(command) ran for more than \(Int(seconds)) s and was killed", sourceLocation: sourceLocation)
    }
}

extension Process {
    /// Waits for the process to end, killing it when it passes ``ProcessDeadline/seconds``,
    /// and then recording a failure that names `command`.
    func waitUntilExit(deadline command: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let watchdog = ProcessDeadline.watch(self)
        waitUntilExit()
        if watchdog.cancel() { ProcessDeadline.recordKill(of: command, sourceLocation: sourceLocation) }
    }
}
