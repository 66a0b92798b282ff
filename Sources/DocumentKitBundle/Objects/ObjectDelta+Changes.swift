import Foundation

extension DeltaEncoder {
    /// How many separate runs of changed bytes `encodeAroundChanges` follows.
    static let maximumChanges = 8
    /// The bytes of the target that must agree with the base to take up copying again.
    static let anchorSize = 32

    /// The program of a target that is the base with a few short runs of bytes changed:
    /// one, as a one-field save makes (COPY the common start, ADD the different bytes, COPY
    /// the common end), or several far apart, as an `unset` makes (a record removed, and its
    /// id in a list elsewhere): COPY each common run, ADD the changed bytes between them,
    /// the next common run found within a few KiB of where the last one ended, on both
    /// sides. `false` (and nothing written) when more runs change, when one is longer than
    /// ``ObjectDelta/smallChange``, or when the inputs do not agree again nearby: then the
    /// base is indexed as for any delta, which for a 40 MB document costs more than the
    /// rest of a save. Below a megabyte, indexing costs little and may find copies inside
    /// a change, so it is always used.
    ///
    /// Each COPY is of bytes compared equal, and the ADDs hold the target's bytes between
    /// them in order, so the program rebuilds the target whatever runs are chosen.
    mutating func encodeAroundChanges() -> Bool {
        guard base.count >= ObjectDelta.smallChange * 256 else { return false }
        let targetStart = target.baseAddress.unsafelyUnwrapped
        let baseStart = base.baseAddress.unsafelyUnwrapped
        let shorter = min(target.count, base.count)
        var run = Self.longCommonPrefix(baseStart, targetStart, limit: shorter)
        var suffix = Self.longCommonSuffix(
            before: baseStart + base.count, targetStart + target.count, limit: shorter - run)
        if suffix < ObjectDelta.minimumCopy { suffix = 0 }
        let targetEnd = target.count - suffix
        let baseEnd = base.count - suffix

        enum Step {
            case copy(offset: Int, length: Int)
            case add(Range<Int>)
        }
        var steps: [Step] = []
        var (t, b) = (0, 0)
        var addFrom = 0
        var changes = 0
        while true {
            if run >= ObjectDelta.minimumCopy {
                if addFrom < t { steps.append(.add(addFrom..<t)) }
                steps.append(.copy(offset: b, length: run))
                addFrom = t + run
            }
            (t, b) = (t + run, b + run)
            if t >= targetEnd { break }
            // The last change, with the common end after it: its bytes are added.
            if targetEnd - t <= ObjectDelta.smallChange, baseEnd - b <= ObjectDelta.smallChange {
                t = targetEnd
                break
            }
            changes += 1
            guard changes <= Self.maximumChanges,
                let (nextTarget, nextBase) = resynchronize(target: t, base: b, targetEnd: targetEnd, baseEnd: baseEnd)
            else {
                // The rest of the target, when short, is added; the base's rest is passed over.
                guard changes <= Self.maximumChanges, targetEnd - t <= ObjectDelta.smallChange else { return false }
                t = targetEnd
                break
            }
            guard nextTarget - t <= ObjectDelta.smallChange else { return false }
            (t, b) = (nextTarget, nextBase)
            run = Self.longCommonPrefix(baseStart + b, targetStart + t, limit: min(baseEnd - b, targetEnd - t))
        }
        if addFrom < targetEnd { steps.append(.add(addFrom..<targetEnd)) }
        if suffix > 0 { steps.append(.copy(offset: baseEnd, length: suffix)) }
        for step in steps {
            switch step {
            case .copy(let offset, let length): appendCopy(offset: offset, length: length)
            case .add(let range): appendAdd(range)
            }
        }
        return true
    }

    /// Where the target and the base agree again after a change at `target` and `base`:
    /// the first place in the next ``ObjectDelta/smallChange`` bytes of the target whose
    /// next ``anchorSize`` bytes the base holds within twice that of `base`, at the place
    /// where they agree longest, up to 4 KiB (a short anchor of JSON recurs: keys and
    /// indentation). `nil` when none agrees for at least 256 bytes.
    private func resynchronize(target t: Int, base b: Int, targetEnd: Int, baseEnd: Int) -> (target: Int, base: Int)? {
        let targetStart = target.baseAddress.unsafelyUnwrapped
        let baseStart = base.baseAddress.unsafelyUnwrapped
        let anchor = Self.anchorSize
        let window = 2 * ObjectDelta.smallChange
        for step in stride(from: 0, through: min(ObjectDelta.smallChange, targetEnd - t - anchor), by: 8) {
            let needle = targetStart + t + step
            var from = b
            let limit = min(baseEnd, b + window + step)
            var best: (base: Int, length: Int)?
            var tries = 0
            while from + anchor <= limit, tries < 16,
                let found = Self.find(needle, anchor, in: baseStart + from, limit - from)
            {
                tries += 1
                let at = from + found
                let length = Self.commonPrefix(
                    baseStart + at, needle, limit: min(baseEnd - at, targetEnd - t - step, 1 << 12))
                if length > (best?.length ?? 0) { best = (at, length) }
                from = at + 1
            }
            if let best, best.length >= 8 * ObjectDelta.minimumCopy { return (t + step, best.base) }
        }
        return nil
    }

    /// Where the `count` bytes at `needle` first occur in the `length` bytes at `haystack`.
    private static func find(_ needle: UnsafeRawPointer, _ count: Int, in haystack: UnsafeRawPointer, _ length: Int)
        -> Int?
    {
        let first = Int32(needle.load(as: UInt8.self))
        var offset = 0
        while offset + count <= length {
            guard let hit = memchr(haystack + offset, first, length - count + 1 - offset) else { return nil }
            let at = haystack.distance(to: UnsafeRawPointer(hit))
            if memcmp(haystack + at, needle, count) == 0 { return at }
            offset = at + 1
        }
        return nil
    }
}
