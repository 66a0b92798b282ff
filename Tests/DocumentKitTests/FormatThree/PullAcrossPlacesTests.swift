import Foundation
import Testing

@testable import DocumentKit

/// Issue 25: a pull checks the other copy's new document from this copy's head document
/// (FORMAT.md §12.4), moving a 16th place's program onto it through the links between.
/// These walk one version at a time past a 16th place after what moves the chains: a
/// prune (the chain's origin becomes the head's place) and a merge (whose document is a
/// delta against the old head), so that every place's check meets those layouts.
@Suite struct PullAcrossPlacesTests {
    /// Pulls into `ours` from `theirs` after each of `count` saves in `theirs`, checking
    /// each time that the pull is a fast-forward to their head, document for document.
    /// Returns how many of the new documents were deltas against another document than
    /// this copy's head's: 16th places, checked through the links between.
    @discardableResult
    private func pullEachSave(_ count: Int, into ours: URL, from theirs: URL, numberedFrom first: Int) throws -> Int {
        var sixteenthPlaces = 0
        for save in first..<(first + count) {
            try FormatThreeFixtures.addSaves(1, to: theirs, taskCount: 2_000, from: save)
            let ourHead = try DocumentBundle(contentsOf: ours).heldHeadDocument().digest
            let their = try DocumentBundle(contentsOf: theirs)
            let record = try #require(try their.objectRecord(try their.documentDigest(of: their.headVersion)))
            if record.codec == .delta, record.base != ourHead { sixteenthPlaces += 1 }
            let outcome = try BundlePuller.pull(into: ours, from: theirs, metadata: FormatThreeFixtures.metadata)
            #expect(outcome.kind == .fastForward, "save \(save)")
            let (pulled, source) = (try DocumentBundle(contentsOf: ours), try DocumentBundle(contentsOf: theirs))
            #expect(pulled.headVersion.id == source.headVersion.id, "save \(save)")
            #expect(
                try pulled.documentData(of: pulled.headVersion) == (try source.documentData(of: source.headVersion)),
                "save \(save)")
        }
        return sixteenthPlaces
    }

    /// Every version's document rebuilds and checks, as `validate --deep` reads them.
    private func expectDeeplyValid(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let report = try BundleValidator.validate(url, deep: true)
        #expect(report.valid, "\(report.findings)", sourceLocation: sourceLocation)
    }

    @Test func afterAPruneEveryPlacePullsAndChecks() throws {
        let directory = try TemporaryDirectory()
        let ours = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("ours.dkproj"), taskCount: 2_000, saves: 40)
        _ = try BundlePruner.prune(ours, keep: 5)
        let theirs = directory.url.appendingPathComponent("theirs.dkproj")
        try FileManager.default.copyItem(at: ours, to: theirs)
        // 20 pulls: past the 16th place after the prune's new chain origin.
        #expect(try pullEachSave(20, into: ours, from: theirs, numberedFrom: 100) == 1)
        try expectDeeplyValid(ours)
        #expect(try DocumentBundle(contentsOf: ours).manifest.versions.count == 25)
    }

    @Test func afterAMergeEveryPlacePullsAndChecks() throws {
        let directory = try TemporaryDirectory()
        let (ours, theirs) = try FormatThreeFixtures.twoCopies(
            in: directory, taskCount: 2_000, saves: 10, ahead: 3, from: 500)
        // Diverged: ours renames other tasks than theirs did, and merges theirs.
        try FormatThreeFixtures.addSaves(3, to: ours, taskCount: 2_000, from: 20)
        let merge = try BundlePuller.pull(into: ours, from: theirs, metadata: FormatThreeFixtures.metadata)
        #expect(merge.kind == .merged)
        // Theirs takes the merge, then pulls each of ours' next saves, one at a time.
        let taken = try BundlePuller.pull(into: theirs, from: ours, metadata: FormatThreeFixtures.metadata)
        #expect(taken.kind == .fastForward)
        #expect(try pullEachSave(20, into: theirs, from: ours, numberedFrom: 700) >= 1)
        try expectDeeplyValid(theirs)
        try expectDeeplyValid(ours)
    }
}
