import Foundation

/// Runs a remote's transfers side by side: up to `jobs` at once, each on a thread of its
/// own, since a remote's calls block for their requests and a link's round trip, not
/// the CPU, is what a transfer mostly waits for.
///
/// After the first failure no transfer starts; those under way finish (a half-sent
/// upload is left as an interrupted one would be, and resumed by the next push), and
/// the first error is thrown as the transfer threw it, naming its file.
public enum TransferQueue {
    /// How many transfers a push, clone or pull runs at once unless told otherwise: enough
    /// to hide a distant server's round trips (boto3's transfer manager runs 10), few
    /// enough that a remote's part buffers stay within its memory budget.
    public static let defaultJobs = 8

    /// Calls `transfer` once for each of `items`, up to `jobs` at once, and returns when
    /// every call that started has ended; throws the first error one threw. With `jobs`
    /// of 1 (or one item) the calls run in order on this thread, as a loop would run them.
    ///
    /// Each item is handed to one call and to no other thread; the progress meter of this
    /// thread counts what every call counts.
    package static func run<Item>(_ items: [Item], jobs: Int, _ transfer: @escaping @Sendable (Item) throws -> Void)
        throws
    {
        guard jobs > 1, items.count > 1 else {
            for item in items { try transfer(item) }
            return
        }
        let queue = Pending(items)
        // Task-local values do not follow work to another thread: the context goes with it.
        let context = WorkContext.current
        let finished = DispatchGroup()
        for _ in 0..<min(jobs, items.count) {
            finished.enter()
            context.detachThread {
                while let item = queue.next() {
                    do { try transfer(item) } catch { queue.fail(error) }
                }
                finished.leave()
            }
        }
        finished.wait()
        if let error = queue.failure { throw error }
    }

    /// The items not yet handed out, and the first failure. Each item leaves under the
    /// lock to exactly one thread, which alone uses it from then on: no item is shared,
    /// hence `@unchecked Sendable` for items that are not `Sendable` themselves (a file
    /// read from a bundle, whose reads are safe from any thread).
    private final class Pending<Item>: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [Item]
        private var nextIndex = 0
        private var error: (any Error)?

        init(_ items: [Item]) { self.items = items }

        /// The next item, or `nil` when none is left or a transfer has failed.
        func next() -> Item? {
            lock.withLock {
                guard error == nil, nextIndex < items.count else { return nil }
                defer { nextIndex += 1 }
                return items[nextIndex]
            }
        }

        /// Keeps `error` if it is the first.
        func fail(_ error: any Error) {
            lock.withLock { if self.error == nil { self.error = error } }
        }

        var failure: (any Error)? { lock.withLock { error } }
    }
}
