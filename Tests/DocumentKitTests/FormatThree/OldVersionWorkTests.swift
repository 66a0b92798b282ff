import Foundation
import Testing

@testable import DocumentKit

/// Issue 25: reading an old version costs what its delta chain holds, not its distance from
/// the head. A version's document is looked up first in the segment of the save that
/// stored it, and each base of its chain from its delta's segment back. Counted in index
/// rows read (the work meter's `index-rows`): reading version 2 of a history of five
/// segments reads about as many rows as reading it from a history of two, where a search
/// of every segment from the newest, for each link, read twice as many again.
@Suite struct OldVersionWorkTests {
    /// The index rows `cat --version 2` reads in a project of `saves` saves after its first
    /// version, the number of segments it has, and whether it printed version 2's document.
    static func secondVersionRows(saves: Int) throws -> (rows: Int, segments: Int, printed: Bool) {
        let directory = try TemporaryDirectory("old-version-work-\(saves)")
        let url = directory.url.appendingPathComponent("h.dkproj")
        try FormatThreeFixtures.project(at: url, saves: saves)
        let bundle = try DocumentBundle(contentsOf: url)
        let segments = try #require(bundle.history).segments.count
        let counts = try WorkScalingTests.meteredRun(["cat", "h.dkproj", "--version", "2"], in: directory)
        let expected = try bundle.documentData(of: try #require(try bundle.version(atPlace: 2)))
        let printed = try Run.docctl(["cat", "h.dkproj", "--version", "2"], in: directory.url)
        return (try #require(counts["index-rows"]), segments, printed.status == 0 && printed.standardOutput == expected)
    }

    @Test func anOldVersionSearchesOnlyTheSegmentsItsChainPasses() throws {
        let few = try Self.secondVersionRows(saves: 9)
        let many = try Self.secondVersionRows(saves: 1_200)
        #expect(few.segments <= 2 && few.printed && few.rows > 0)
        try #require(many.segments >= 4, "the history spans several segments")
        #expect(many.printed)
        // A search of a segment of 700 objects reads a few rows more than one of 10 (here
        // 45 rows against 22); searching every segment from the newest read 97.
        #expect(
            many.rows <= 2 * few.rows + 8,
            "version 2 read \(few.rows) index rows of one segment, \(many.rows) of \(many.segments)")
    }
}
