import Foundation

/// Work whose pieces are computed side by side and used in order: `produce` runs on up to
/// `width` threads, and `consume` takes each result on the calling thread, in index order,
/// with at most `lookahead` results made ahead of it, so that memory holds a few results
/// and never all of them. What `validate` uses to read a long history's segments on every
/// core while it checks them one after another.
package enum OrderedWork {
    /// Calls `produce(index)` for each index of `0..<count` and passes the results to
    /// `consume`, in order. With a `width` of 1, or one piece, everything runs on this
    /// thread, in order. When `consume` throws, no piece starts after, the pieces under way
    /// finish, and the error is thrown.
    package static func run<Result: Sendable>(
        count: Int, width: Int, lookahead: Int,
        produce: @escaping @Sendable (Int) -> Result,
        consume: (Int, Result) throws -> Void
    ) throws {
        guard width > 1, count > 1 else {
            for index in 0..<count { try consume(index, produce(index)) }
            return
        }
        let state = State<Result>(count: count, lookahead: max(lookahead, width))
        let context = WorkContext.current
        let finished = DispatchGroup()
        for _ in 0..<min(width, count) {
            finished.enter()
            context.detachThread {
                while let index = state.take() { state.put(index, produce(index)) }
                finished.leave()
            }
        }
        defer {
            state.stop()
            finished.wait()
        }
        for index in 0..<count {
            try consume(index, state.result(index))
        }
    }

    /// The pieces handed out and the results not yet consumed, under one condition lock.
    private final class State<Result: Sendable>: @unchecked Sendable {
        private let condition = NSCondition()
        private let count: Int
        private let lookahead: Int
        private var next = 0
        private var consumed = 0
        private var results: [Int: Result] = [:]
        private var stopped = false

        init(count: Int, lookahead: Int) {
            self.count = count
            self.lookahead = lookahead
        }

        /// The next index to produce, once it is within the lookahead; `nil` when none is left.
        func take() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            while !stopped, next < count, next - consumed >= lookahead { condition.wait() }
            guard !stopped, next < count else { return nil }
            defer { next += 1 }
            return next
        }

        func put(_ index: Int, _ result: Result) {
            condition.lock()
            results[index] = result
            condition.broadcast()
            condition.unlock()
        }

        /// The result at `index`, waiting for it.
        func result(_ index: Int) -> Result {
            condition.lock()
            defer { condition.unlock() }
            while results[index] == nil { condition.wait() }
            consumed = index + 1
            condition.broadcast()
            return results.removeValue(forKey: index)!
        }

        func stop() {
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
