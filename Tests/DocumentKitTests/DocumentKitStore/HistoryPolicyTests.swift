@testable import DocumentKit
import Foundation
import Testing

/// Format 3's chains stay short and its segments few, however long the history.
@Suite struct HistoryPolicyTests {
    @Test func deltaChainsAreBoundedByTheirCheckpoints() {
        #expect(HistoryPolicy.deltaBase(ofDocument: 0) == nil)
        #expect((1...15).allSatisfy { HistoryPolicy.deltaBase(ofDocument: $0) == $0 - 1 })
        #expect(HistoryPolicy.deltaBase(ofDocument: 16) == 0 && HistoryPolicy.deltaBase(ofDocument: 32) == 16)
        #expect(HistoryPolicy.deltaBase(ofDocument: 256) == 0 && HistoryPolicy.deltaBase(ofDocument: 4_096 + 256) == 4_096)
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
            #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 > 2 * $1 || $0 + $1 > HistoryPolicy.mergeLimit }, "after save \(save): \(sizes)")
            #expect(merged == 0 || sizes.last! <= HistoryPolicy.mergeLimit)
            // Full segments, more than half the limit each, then at most log2(limit / 150) ≈ 13 below it.
            if save % 10_000 == 0 {
                #expect(UInt64(sizes.count) <= 2 * written / HistoryPolicy.mergeLimit + 14, "\(sizes.count) segments after \(save) saves")
            }
        }
        // A byte is copied by at most log2(limit / 150) ≈ 13 merges over its life, however
        // long the history.
        #expect(copied < 13 * written, "copied \(copied) for \(written) written")
    }
}
