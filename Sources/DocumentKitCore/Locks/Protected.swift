import Foundation

/// A value that threads share, read and written under a lock: for the few choices a
/// program makes for the whole process at its start (the clock, how long to wait for a
/// lock), which DocumentKit then reads from any thread.
package final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    package init(_ value: Value) { stored = value }

    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place, under the lock: for a collection, without the copy
    /// that reading it, changing the copy and writing it back would make.
    package func mutate<Result>(_ change: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try change(&stored) }
    }
}
