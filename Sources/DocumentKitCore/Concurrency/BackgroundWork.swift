import Foundation

/// Work done on a thread of its own while the caller goes on, and waited for when its
/// result is needed: a save of a large document checks the head's digest while it splices
/// the head, and compresses the new head's object while it writes `document.json`.
///
/// The result is written once, before the semaphore is signalled, and read only after
/// waiting for it; hence `@unchecked Sendable`.
package final class BackgroundWork<Value: Sendable>: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var outcome: Result<Value, any Error>?

    package init(_ work: @escaping @Sendable () throws -> Value) {
        WorkContext.current.detachThread { [self] in
            outcome = Result { try work() }
            finished.signal()
        }
    }

    /// The work's value, or the error it threw, once it has finished.
    package func result() throws -> Value {
        finished.wait()
        // Signalled again, so that a second wait does not block.
        finished.signal()
        return try outcome!.get()
    }
}
