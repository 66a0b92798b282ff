import Foundation

/// The two choices a format-3 writer makes that keep a history cheap to read and to add
/// to (FORMAT.md §12.3 and §4): which stored document a new one is a delta against,
/// and which segments a save merges.
package enum HistoryPolicy {
    /// The radix of the delta checkpoints: every 16th document is a delta against the one
    /// 16 before it, every 256th against the one 256 before, and so on.
    package static let checkpointRadix = 16

    /// The index of the document the `n`-th stored document (from 0, the first, stored
    /// whole) is a delta against: `n − 1`, or `n − radix^k` for the largest `radix^k`
    /// that divides `n`. `nil` for the first.
    package static func deltaBase(ofDocument n: Int) -> Int? {
        guard n > 0 else { return nil }
        var step = 1
        while n % (step * checkpointRadix) == 0 { step *= checkpointRadix }
        return n - step
    }

    /// How many deltas reading the `n`-th document follows to the whole first one: at
    /// most `radix − 1` per digit of `n` in base `radix`.
    package static func chainLength(ofDocument n: Int) -> Int {
        var length = 0
        var document = n
        while let base = deltaBase(ofDocument: document) {
            length += 1
            document = base
        }
        return length
    }

    /// The largest segment a merge makes: a save copies at most this much history, however
    /// long the history, and the segments past it are read by their index alone.
    package static let mergeLimit: UInt64 = 1 << 20

    /// How many of the newest segments a save merges into one, given every segment's
    /// stored size, oldest first, its own new one last: the newest two merge while the
    /// newer is more than half the older (what they merge into counting as the newer) and
    /// the result stays within ``mergeLimit``, so that each segment below the limit is left
    /// more than twice the size of the next.
    package static func segmentsToMerge(sizes: [UInt64]) -> Int {
        guard let newest = sizes.last else { return 0 }
        return segmentsToMerge(newest: newest, olderCount: sizes.count - 1) { sizes[sizes.count - 2 - $0] }
    }

    /// ``segmentsToMerge(sizes:)`` for a writer that learns sizes as it asks for them (a
    /// remote's segments, one request each): `newest` is the new segment's size, and
    /// `older(k)` the size of the k-th segment before it (0, the newest of the others),
    /// asked for only as far as the policy looks.
    package static func segmentsToMerge(newest: UInt64, olderCount: Int, older: (Int) throws -> UInt64) rethrows -> Int
    {
        var newest = newest
        var merged = 1
        while merged <= olderCount {
            let size = try older(merged - 1)
            guard newest * 2 > size, newest + size <= mergeLimit else { break }
            newest += size
            merged += 1
        }
        return merged == 1 ? 0 : merged
    }

    /// The segments a pack writes as one, by index, oldest first: each run as long as its
    /// segments' stored sizes add up to at most the merge limit, taken from the oldest, so
    /// that a packed history packs to itself.
    package static func packRuns(sizes: [UInt64]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        var start = 0
        var total: UInt64 = 0
        for (index, size) in sizes.enumerated() {
            if index > start, total + size > mergeLimit {
                runs.append(start...(index - 1))
                (start, total) = (index, 0)
            }
            total += size
        }
        runs.append(start...(sizes.count - 1))
        return runs
    }
}
