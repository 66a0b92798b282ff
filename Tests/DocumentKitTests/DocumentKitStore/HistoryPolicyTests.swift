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
            #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 > 2 * $1 }, "after save \(save): \(sizes)")
            if save % 10_000 == 0 { #expect(sizes.count <= 17, "\(sizes.count) segments after \(save) saves") }
        }
        // A byte is copied by at most log2 merges over its life: 100,000 saves copy less
        // than 17 times what they wrote.
        #expect(copied < 17 * written, "copied \(copied) for \(written) written")
    }
}
