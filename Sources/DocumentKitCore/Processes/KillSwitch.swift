import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kills this process (`SIGKILL`, as a power cut or the OOM killer would end it) once a
/// chosen number of steps of a long write are done: how the tests stop a push after each
/// of its writes in turn and check what it leaves. Off unless ``arm(after:)`` is called.
package enum KillSwitch {
    /// The steps left before the kill; `nil` while unarmed.
    private static let remaining = Protected<Int?>(nil)

    /// Kills the process at the step after the `steps`-th.
    package static func arm(after steps: Int) {
        remaining.value = steps
    }

    /// Counts a step about to be taken: kills the process when the armed number is done.
    package static func step() {
        let due = remaining.mutate { remaining -> Bool in
            guard let left = remaining else { return false }
            remaining = left - 1
            return left <= 0
        }
        if due {
            _ = kill(getpid(), SIGKILL)
        }
    }
}
