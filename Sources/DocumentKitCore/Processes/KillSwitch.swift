import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Kills this process (`SIGKILL`, as a power cut or the OOM killer would end it, or
/// another signal, as a user's Ctrl-C would) once a chosen number of steps of a long
/// write are done: how the tests stop a push after each of its writes in turn and check
/// what it leaves. Off unless ``arm(after:signal:)`` is called.
package enum KillSwitch {
    /// The steps left before the kill, and its signal; `nil` while unarmed.
    private static let remaining = Protected<(steps: Int, signal: Int32)?>(nil)

    /// Sends `signal` to the process at the step after the `steps`-th.
    package static func arm(after steps: Int, signal: Int32 = SIGKILL) {
        remaining.value = (steps, signal)
    }

    /// Counts a step about to be taken: kills the process when the armed number is done.
    package static func step() {
        let due = remaining.mutate { remaining -> Int32? in
            guard let (left, signal) = remaining else { return nil }
            remaining = left > 0 ? (left - 1, signal) : nil
            return left <= 0 ? signal : nil
        }
        if let due {
            _ = kill(getpid(), due)
            // A signal that is handled ends the process on another thread: wait for it
            // here, so that no further step is taken, as none would be after SIGKILL.
            while true { pause() }
        }
    }
}
