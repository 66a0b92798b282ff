import Foundation
import Testing

@testable import DocumentKit

/// Format 3's chains stay short and its segments few, however long the history.
@Suite struct HistoryPolicyTests {
    @Test func deltaChainsAreBoundedByTheirCheckpoints() {
        #expect(HistoryPolicy.deltaBase(ofDocument: 0) == nil)
        #expect((1...15).allSatisfy { HistoryPolicy.deltaBase(ofDocument: $0) == $0 - 1 })
        #expect(HistoryPolicy.deltaBase(ofDocument: 16) == 0 && HistoryPolicy.deltaBase(ofDocument: 32) == 16)
        #expect(
            HistoryPolicy.deltaBase(ofDocument: 256) == 0 && HistoryPolicy.deltaBase(ofDocument: 4_096 + 256) == 4_096)
        // At most 15 links per base-16 digit: 46 at 10,000 documents, 60 at 100,000.
        #expect((0..<10_000).map(HistoryPolicy.chainLength(ofDocument:)).max() == 46)
        #expect((0..<100_000).map(HistoryPolicy.chainLength(ofDocument:)).max() == 60)
        // Every base is an earlier document: chains end at the first, never loop.
        #expect((1..<5_000).allSatisfy { (HistoryPolicy.deltaBase(ofDocument: $0) ?? -1) < $0 })
    }

    @Test func segmentsStayFewAndEachIsMoreThanTwiceTheNext() {
        var sizes: [UInt64] = []
        var copied: UInt64 = 0
        var written: UInt64 = 0
        for save in 1...100_000 {
            let size = UInt64(150 + save % 50)
            sizes.append(size)
            written += size
            let merged = HistoryPolicy.segmentsToMerge(sizes: sizes)
            if merged > 0 {
                let total = sizes.suffix(merged).reduce(0, +)
                copied += total
                sizes.removeLast(merged)
                sizes.append(total)
            }
            // Each segment more than twice the next, unless the two together pass the limit.
            #expect(
                zip(sizes, sizes.dropFirst()).allSatisfy { $0 > 2 * $1 || $0 + $1 > HistoryPolicy.mergeLimit },
                "after save \(save): \(sizes)")
            #expect(merged == 0 || sizes.last! <= HistoryPolicy.mergeLimit)
            // Full segments, more than half the limit each, then at most log2(limit / 150) ≈ 13 below it.
            if save % 10_000 == 0 {
                #expect(
                    UInt64(sizes.count) <= 2 * written / HistoryPolicy.mergeLimit + 14,
                    "\(sizes.count) segments after \(save) saves")
            }
        }
        // A byte is copied by at most log2(limit / 150) ≈ 13 merges over its life, however
        // long the history.
        #expect(copied < 13 * written, "copied \(copied) for \(written) written")
    }

    /// A pack merges what a save's merge would allow and copies the rest: never more than
    /// the limit in one segment made, and a packed history's segments pack to themselves.
    @Test func aPackMergesRunsWithinTheLimitAndCopiesLargerSegments() {
        let limit = HistoryPolicy.mergeLimit
        #expect(HistoryPolicy.packRuns(sizes: [100, 200, 300]) == [0...2])
        #expect(HistoryPolicy.packRuns(sizes: [limit * 9 / 10, limit / 20, limit * 9 / 10]) == [0...1, 2...2])
        #expect(HistoryPolicy.packRuns(sizes: [2 * limit, limit / 10, limit / 10]) == [0...0, 1...2])
        #expect(HistoryPolicy.packRuns(sizes: [limit, 1]) == [0...0, 1...1])
        // Packed again: each run became one segment of its runs' total.
        var random = SeededRandom(seed: 12)
        let sizes = (0..<40).map { _ in UInt64.random(in: 1...(limit / 3), using: &random) }
        let runs = HistoryPolicy.packRuns(sizes: sizes)
        let packed = runs.map { sizes[$0].reduce(0, +) }
        #expect(runs.allSatisfy { $0.count == 1 || sizes[$0].reduce(0, +) <= limit })
        #expect(HistoryPolicy.packRuns(sizes: packed) == packed.indices.map { $0...$0 })
    }
}
