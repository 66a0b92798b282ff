import Foundation

/// The bytes of request bodies a store may hold in memory at once, shared by every
/// transfer of a command: a part (or a small file) takes its size before it is read into
/// memory and gives it back once its request has ended, waiting meanwhile when the rest
/// is out. So transfers run side by side in bounded memory, however many there are.
///
/// Blocking: it is taken on a transfer's own thread (``S3RemoteStore/upload(_:from:size:)``),
/// never on a thread that the requests in flight need to finish.
final class ByteBudget: @unchecked Sendable {
    /// The bytes there are in all.
    let capacity: Int
    // `inUse` is read and written only under `condition`'s lock: hence `@unchecked Sendable`.
    private let condition = NSCondition()
    private var inUse = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
    }

    /// Takes `bytes` (at most the whole budget, so that a body larger than it still goes,
    /// alone), waiting until that much is free; returns what was taken, to give back.
    func take(_ bytes: Int) -> Int {
        let amount = min(max(bytes, 0), capacity)
        condition.lock()
        defer { condition.unlock() }
        while inUse + amount > capacity { condition.wait() }
        inUse += amount
        return amount
    }

    /// Gives back what ``take(_:)`` returned.
    func give(_ bytes: Int) {
        condition.lock()
        inUse -= bytes
        condition.unlock()
        condition.broadcast()
    }

    /// The bytes taken now (for tests).
    var taken: Int {
        condition.lock()
        defer { condition.unlock() }
        return inUse
    }
}
