import Foundation

/// A serial executor that runs its jobs, in the order they came, on a thread of its own
/// rather than on one of the cooperative threads Swift's tasks share: an actor whose work
/// blocks on files (reading, hashing, writing and flushing a bundle) takes it as its
/// executor. The thread starts when a job arrives and ends when none is left, so an idle
/// actor holds no thread.
package final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var draining = false

    package init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let start = lock.withLock { () -> Bool in
            jobs.append(job)
            if draining { return false }
            draining = true
            return true
        }
        if start { Thread.detachNewThread { self.drain() } }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Runs jobs until there are none; only one thread drains at a time.
    private func drain() {
        while let job = next() {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    private func next() -> UnownedJob? {
        lock.withLock {
            guard !jobs.isEmpty else {
                draining = false
                return nil
            }
            return jobs.removeFirst()
        }
    }
}
