import Foundation
import Testing

@testable import DocumentKit

/// An HTML export gives each version a page of its changes against its parent, which
/// needs both documents. Walked oldest first, holding the last document read, each is
/// rebuilt from the one before it, one link, where each page alone rebuilt two documents
/// through their whole chains (8 links on average in format 3): the export's rebuilding
/// grows with the versions, not with the versions times the chains (issue 27).
@Suite struct HTMLHistoryWorkTests {
    @Test func thePagesRebuildEachVersionsDocumentOnce() throws {
        let directory = try TemporaryDirectory()
        let versions = 41
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 2_000, saves: versions - 1)
        let bundle = try DocumentBundle(contentsOf: url)
        let document = try bundle.documentData(of: bundle.headVersion).count
        let counts = try WorkScalingTests.meteredRun(
            ["export", "p.dkproj", "--format", "html", "-o", "site"], in: directory)
        let rebuilt = try #require(counts["rebuilt-bytes"])
        // verify rebuilds each document once, in its own walk, and the pages each once more
        // (1.93 documents a version here). Pages that rebuilt both of theirs, each through
        // its chain folded into one program, took 2.88.
        #expect(rebuilt > versions * document, "the meter sees the documents rebuilt: \(counts)")
        #expect(
            Double(rebuilt) < 2.2 * Double(versions * document),
            "\(rebuilt) bytes rebuilt for \(versions) documents of \(document)")
        #expect(
            Fixtures.listing(directory.url.appendingPathComponent("site/versions")).count == versions,
            "a page for each version")
    }
}
