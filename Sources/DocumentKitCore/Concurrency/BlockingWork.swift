import Foundation

/// Blocking work (reading, hashing, writing and flushing a bundle) run for an `async`
/// caller on a thread of its own: the awaiting task is resumed when it is done, and none of
/// the few cooperative threads Swift's tasks share is held by a save meanwhile.
package enum BlockingWork {
    package static func run<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        // Task-local values stay with the task; the configuration and the progress meter
        // go with the work.
        let context = WorkContext.current
        return try await withCheckedThrowingContinuation { continuation in
            context.detachThread { continuation.resume(with: Result { try work() }) }
        }
    }
}
