import Foundation
import Testing

@testable import DocumentKit

/// Issue 25: a fast-forward pull checks the other copy's new document, a delta against the
/// document this copy's head holds whole (15 places in 16: FORMAT.md §12.3), from this
/// copy's `document.json`, not from the chain of deltas that leads there in the other
/// copy, so that the pull of one version costs the same at 100,000 versions as at ten.
@Suite struct PullFromHeadDocumentTests {
    @Test func theNewDocumentIsCheckedFromThisCopysHeadNotFromItsChain() throws {
        let directory = try TemporaryDirectory()
        // 2,000 tasks: the first document is an object of its own (64 KiB or more), which
        // can be damaged alone. Places 1 to 3 here, and 4 in theirs, a delta against 3.
        let (ours, theirs) = try FormatThreeFixtures.twoCopies(
            in: directory, taskCount: 2_000, saves: 2, ahead: 1, from: 7)
        let theirBundle = try DocumentBundle(contentsOf: theirs)
        let new = try theirBundle.documentDigest(of: theirBundle.headVersion)
        let record = try #require(try theirBundle.objectRecord(new))
        let ourHead = try DocumentBundle(contentsOf: ours).heldHeadDocument()
        #expect(record.codec == .delta && record.base == ourHead.digest, "theirs' new document is a delta on ours")

        // The root of the chain, damaged in theirs: reading through it fails.
        try Self.damageFirstDocument(of: theirs)
        let damaged = try DocumentBundle(contentsOf: theirs)
        #expect(throws: (any Error).self) { try damaged.objectData(new) }
        let expected = try damaged.documentData(of: damaged.headVersion)
        #expect(try damaged.objectData(new, reaching: ourHead) == expected)

        // The pull never reads the chain: damage in an object both copies hold is not its
        // to find (validate --deep finds it).
        let outcome = try BundlePuller.pull(into: ours, from: theirs, metadata: FormatThreeFixtures.metadata)
        #expect(outcome.kind == .fastForward)
        let pulled = try DocumentBundle(contentsOf: ours)
        #expect(pulled.headVersion.id == damaged.headVersion.id)
        #expect(try pulled.documentData(of: pulled.headVersion) == expected)
    }

    /// A delta whose base is this copy's head document is still checked: damage in the new
    /// object itself is refused, and nothing is written.
    @Test func aDamagedNewDeltaIsStillRefused() throws {
        let directory = try TemporaryDirectory()
        let (ours, theirs) = try FormatThreeFixtures.twoCopies(
            in: directory, taskCount: 2_000, saves: 2, ahead: 1, from: 7)
        let before = try Data(contentsOf: ours)
        #expect(try Self.damageNewDeltas(of: theirs) > 0)
        #expect(throws: DocumentKitError.self) {
            try BundlePuller.pull(into: ours, from: theirs, metadata: FormatThreeFixtures.metadata)
        }
        #expect(try Data(contentsOf: ours) == before)
    }

    /// At a 16th place the new document is a delta against the document 16 places back
    /// (here the first, stored whole): it is checked from this copy's head document, its
    /// program moved onto it through the 15 links between, so the pull reads neither the
    /// old document nor the other copy's chain.
    @Test func aSixteenthPlaceIsCheckedFromThisCopysHeadThroughTheLinksBetween() throws {
        let directory = try TemporaryDirectory()
        // Places 1 to 16 here; place 17 in theirs, 16 places after the first.
        let (ours, theirs) = try FormatThreeFixtures.twoCopies(
            in: directory, taskCount: 2_000, saves: 15, ahead: 1, from: 20)
        let theirBundle = try DocumentBundle(contentsOf: theirs)
        let first = try theirBundle.documentDigest(of: theirBundle.manifest.versions[0])
        let new = try theirBundle.documentDigest(of: theirBundle.headVersion)
        let record = try #require(try theirBundle.objectRecord(new))
        let ourHead = try DocumentBundle(contentsOf: ours).heldHeadDocument()
        #expect(record.codec == .delta && record.base == first && first != ourHead.digest)

        try Self.damageFirstDocument(of: theirs)
        let damaged = try DocumentBundle(contentsOf: theirs)
        #expect(throws: (any Error).self) { try damaged.objectData(new) }
        let expected = try damaged.documentData(of: damaged.headVersion)

        let outcome = try BundlePuller.pull(into: ours, from: theirs, metadata: FormatThreeFixtures.metadata)
        #expect(outcome.kind == .fastForward)
        let pulled = try DocumentBundle(contentsOf: ours)
        #expect(pulled.headVersion.id == damaged.headVersion.id)
        #expect(try pulled.documentData(of: pulled.headVersion) == expected)
        #expect(try pulled.objectData(new) == expected, "the delta, as copied, rebuilds from this copy's chain")
    }

    /// The 16th place's delta, damaged, is refused through that path too, and nothing is
    /// written.
    @Test func aDamagedSixteenthPlaceDeltaIsRefused() throws {
        let directory = try TemporaryDirectory()
        let (ours, theirs) = try FormatThreeFixtures.twoCopies(
            in: directory, taskCount: 2_000, saves: 15, ahead: 1, from: 20)
        let before = try Data(contentsOf: ours)
        #expect(try Self.damageNewDeltas(of: theirs) > 0)
        let error = try #require(throws: DocumentKitError.self) {
            try BundlePuller.pull(into: ours, from: theirs, metadata: FormatThreeFixtures.metadata)
        }
        #expect(error.code == .malformedInput && error.message.contains("nothing was pulled"))
        #expect(try Data(contentsOf: ours) == before)
    }

    /// Flips a byte in the middle of the first version's document, an entry of its own in
    /// the bundle at `url`: reading through it fails.
    private static func damageFirstDocument(of url: URL) throws {
        let bundle = try DocumentBundle(contentsOf: url)
        let first = try bundle.documentDigest(of: bundle.manifest.versions[0])
        let entry = try #require(bundle.zip.entry(named: first.entryName), "the first document is an entry")
        var bytes = try Data(contentsOf: url)
        bytes[Int(entry.dataOffset + entry.size / 2)] ^= 0x5A
        try bytes.write(to: url)
    }

    /// Flips the last byte (the last ADD's last) of each delta program in the newest
    /// segment of the bundle at `url`: the programs still run, to other bytes. Returns how
    /// many it damaged.
    private static func damageNewDeltas(of url: URL) throws -> Int {
        var damagedCount = 0
        try FormatThreeFixtures.rewriteNewestSegment(of: url) { items in
            items.map { item in
                guard case .object(var object) = item, case .delta(let base, let program) = object.storage else {
                    return item
                }
                damagedCount += 1
                var damaged = program
                damaged[damaged.count - 1] ^= 0x01
                object.storage = .delta(base: base, program: damaged)
                return .object(object)
            }
        }
        return damagedCount
    }
}
