import Foundation
import Testing

@testable import DocumentKit

/// Commands that write a format-3 history anew (prune, pack) write format 3: one segment
/// with every version, small objects as items, and a bundle the next save appends to. A
/// pull appends the other copy's versions as a save appends its own.
@Suite struct FormatThreeRewriteTests {
    /// The bundle's entries under `history/` and `objects/`.
    private func historyEntries(_ url: URL) throws -> (segments: [String], objects: [String]) {
        let names = try DocumentBundle(contentsOf: url).zip.entries.map(\.name)
        return (names.filter { $0.hasPrefix("history/") }, names.filter { $0.hasPrefix("objects/") })
    }

    private func expectValid(_ name: String, in directory: TemporaryDirectory) throws {
        let validate = try Run.docctl(["validate", "--deep", name], in: directory.url)
        #expect(validate.status == 0, "\(validate.output)")
    }

    @Test func aPruneWritesFormatThreeWithItsDeltasSmallAndTheNextSaveAppends() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 200, saves: 60)
        let before = try Data(contentsOf: url).count
        let original = try DocumentBundle(contentsOf: url)
        let ids = try (52...61).map { try original.version(named: "\($0)").id }
        let documents = try (52...61).map { try original.documentData(of: try original.version(named: "\($0)")) }

        let prune = try Run.docctl(["prune", "p.dkproj", "--keep", "10"], in: directory.url)
        #expect(prune.status == 0, "\(prune.standardError)")
        let pruned = try DocumentBundle(contentsOf: url)
        #expect(pruned.formatVersion == 3)
        #expect(pruned.headVersion.number == 61 && pruned.places == 52...61)
        // Fifty versions fewer, and no document stored whole but where its base went.
        let after = try Data(contentsOf: url).count
        #expect(after < before, "\(before) bytes before the prune, \(after) after")
        #expect(try historyEntries(url).segments == ["history/000000000052-000000000061"])
        for (index, number) in (52...61).enumerated() {
            let version = try pruned.version(named: "\(number)")
            #expect(version.id == ids[index])
            #expect(try pruned.documentData(of: version) == documents[index], "version \(number)")
        }
        try expectValid("p.dkproj", in: directory)

        try FormatThreeFixtures.addSaves(2, to: url, taskCount: 200, from: 100)
        let saved = try DocumentBundle(contentsOf: url)
        #expect(saved.formatVersion == 3 && saved.headVersion.number == 63)
        #expect(
            try historyEntries(url).segments.first == "history/000000000052-000000000061",
            "the prune's segment stays as it is")
        try expectValid("p.dkproj", in: directory)
    }

    /// A prune reads the history's items in order and keeps what the kept versions use:
    /// a blob attached by a version it drops (stored alone, over 64 KiB) is carried, its
    /// entry copied, and a document whose delta base it drops is stored whole.
    @Test func aPruneCarriesWhatKeptVersionsUseFromTheVersionsItDrops() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 60, saves: 3)
        let image = try Fixtures.write(Fixtures.noise(200_000), to: "t.bin", in: directory.url)
        _ = try BundleEdits.attach(
            image, at: JSONPath(parsing: "thumbnail"), mediaType: "application/octet-stream", in: url,
            metadata: SaveMetadata(author: "t"))
        try FormatThreeFixtures.addSaves(25, to: url, taskCount: 60, from: 100)
        let before = try DocumentBundle(contentsOf: url)
        let head = before.headVersion.number
        let kept = (head - 2)...head
        let documents = try kept.map { try before.documentData(of: try before.version(named: "\($0)")) }

        let prune = try Run.docctl(["prune", "p.dkproj", "--keep", "3", "--json"], in: directory.url)
        #expect(prune.status == 0, "\(prune.standardError)")
        let report = try JSONDecoder().decode(BundlePruner.Report.self, from: prune.standardOutput)
        #expect(report.removedVersions == Array(1..<kept.lowerBound) && report.keptVersions == 3)
        let pruned = try DocumentBundle(contentsOf: url)
        #expect(try historyEntries(url).segments == [HistoryManifest.segmentName(first: kept.lowerBound, last: head)])
        #expect(try historyEntries(url).objects.count == 1, "the blob stays alone, copied")
        for (index, number) in kept.enumerated() {
            #expect(
                try pruned.documentData(of: try pruned.version(named: "\(number)")) == documents[index],
                "version \(number)")
        }
        let blobs = try pruned.tree(of: pruned.headVersion)[VersionLayout.blobsFolder]?.fileWrappers ?? [:]
        let blob = try #require(blobs.values.first?.knownDigest)
        #expect(try pruned.objectData(blob) == (try Data(contentsOf: image)))
        try expectValid("p.dkproj", in: directory)
        #expect(try pruned.prunedVersionIDs().count == kept.lowerBound - 1)
    }

    @Test func aPackWritesFormatThreeWithEveryVersionAndObject() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 100, saves: 40)
        let pack = try Run.docctl(["pack", "p.dkproj", "-o", "packed.dkproj"], in: directory.url)
        #expect(pack.status == 0, "\(pack.standardError)")
        let original = try DocumentBundle(contentsOf: url).manifest
        let packedURL = directory.url.appendingPathComponent("packed.dkproj")
        let packed = try DocumentBundle(contentsOf: packedURL)
        #expect(packed.formatVersion == 3)
        let listed = try packed.manifest
        #expect(listed.versions.map(\.id) == original.versions.map(\.id))
        #expect(Set(listed.objects.keys) == Set(original.objects.keys))
        #expect(try historyEntries(packedURL).segments == ["history/000000000001-000000000041"])
        #expect(try historyEntries(packedURL).objects.isEmpty, "every object of a small project is an item")
        try expectValid("packed.dkproj", in: directory)
        // The segments' items are merged as they are, trees found by place and all: the
        // copy is no larger than the bundle's live bytes, and packing it again changes nothing.
        let summary = try BundleSummary(of: url)
        let packedBytes = try Data(contentsOf: packedURL)
        #expect(
            UInt64(packedBytes.count) <= summary.fileBytes - summary.reclaimableBytes,
            "\(packedBytes.count) bytes packed")
        let again = try Run.docctl(["pack", "packed.dkproj", "-o", "again.dkproj"], in: directory.url)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("again.dkproj")) == packedBytes)
        let unzip = try ExternalTool.unzip.run(["-tq", "packed.dkproj"], in: directory.url)
        #expect(unzip.status == 0, "\(unzip.standardError)")
    }

    @Test func aPullBetweenFormatThreeCopiesAppendsAFastForwardAndAMerge() throws {
        let directory = try TemporaryDirectory()
        let (ours, theirs) = try FormatThreeFixtures.twoCopies(
            in: directory, taskCount: 50, saves: 5, ahead: 3, from: 10)
        let segments = try historyEntries(ours).segments

        let forward = try Run.docctl(["pull", "ours.dkproj", "theirs.dkproj"], in: directory.url)
        #expect(forward.status == 0, "\(forward.standardError)")
        var pulled = try DocumentBundle(contentsOf: ours)
        #expect(pulled.formatVersion == 3)
        #expect(pulled.headVersion.id == (try DocumentBundle(contentsOf: theirs).headVersion.id))
        // Appended: the segments ours had stay (or are merged into the new one, as a save's).
        let after = try historyEntries(ours).segments
        #expect(
            after.last?.hasSuffix("-000000000009") == true && after.count >= 1 && after != segments,
            "\(segments) then \(after)")
        try expectValid("ours.dkproj", in: directory)

        // Both edited: a merge version with two parents.
        try FormatThreeFixtures.addSaves(1, to: ours, from: 20)
        try FormatThreeFixtures.addSaves(1, to: theirs, from: 31)
        let merge = try Run.docctl(["pull", "ours.dkproj", "theirs.dkproj"], in: directory.url)
        #expect(merge.status == 0, "\(merge.standardError)")
        pulled = try DocumentBundle(contentsOf: ours)
        #expect(pulled.formatVersion == 3)
        #expect(pulled.headVersion.parents.count == 2 && pulled.headVersion.number == 12)
        let document = try pulled.headDocumentData()
        #expect(String(decoding: document, as: UTF8.self).contains("Renamed in save 20"))
        #expect(String(decoding: document, as: UTF8.self).contains("Renamed in save 31"))
        try expectValid("ours.dkproj", in: directory)
    }

    /// The walk that plans a pull reads the other copy's newest blocks: damage there is one
    /// line naming that copy and its segment, exit 65, and this copy is left as it was.
    @Test func aPullFromACopyWithADamagedNewestSegmentIsRefusedAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let (ours, theirs) = try FormatThreeFixtures.twoCopies(
            in: directory, taskCount: 20, saves: 4, ahead: 2, from: 10)
        let newest = try FormatThreeFixtures.damageSegment(of: theirs, newest: true, offset: 8)
        let before = try Data(contentsOf: ours)

        let pull = try Run.docctl(["pull", "ours.dkproj", "theirs.dkproj"], in: directory.url)
        #expect(pull.status == 65, "\(pull.standardError)")
        #expect(
            pull.standardError.hasPrefix("error: theirs.dkproj: ") && pull.standardError.contains(newest)
                && pull.standardError.split(separator: "\n").count == 1, "\(pull.standardError)")
        #expect(try Data(contentsOf: ours) == before, "nothing was written")
    }

    @Test func aPullFromAFormatTwoCopyKeepsTheBundleInFormatThree() throws {
        let directory = try TemporaryDirectory()
        let theirs = try Fixtures.copySampleDoc("format-2/garden.dkproj", to: directory)
        let ours = directory.url.appendingPathComponent("ours.dkproj")
        try FileManager.default.copyItem(at: theirs, to: ours)
        // Ours upgrades with a save; theirs gets a version of its own.
        var metadata = FormatThreeFixtures.metadata
        _ = try BundleEdits.set(.string("Ours"), at: try JSONPath(parsing: "name"), in: ours, metadata: metadata)
        metadata.formatVersion = 2
        _ = try BundleEdits.set(
            .string("Theirs"), at: try JSONPath(parsing: "summary"), in: theirs, metadata: metadata)
        #expect(try DocumentBundle(contentsOf: ours).formatVersion == 3)
        #expect(try DocumentBundle(contentsOf: theirs).formatVersion == 2)

        let pull = try Run.docctl(["pull", "ours.dkproj", theirs.lastPathComponent], in: directory.url)
        #expect(pull.status == 0, "\(pull.standardError)")
        let pulled = try DocumentBundle(contentsOf: ours)
        #expect(pulled.formatVersion == 3 && pulled.headVersion.parents.count == 2)
        try expectValid("ours.dkproj", in: directory)
    }

    /// `info` reads the counts the manifest keeps, which every way of writing format 3
    /// keeps equal to the history's (validate checks them).
    @Test func infoCountsWhatTheHistoryHoldsWithoutListingIt() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 60, saves: 12)
        func expectCountsAgree(_ what: String) throws {
            let summary = try BundleSummary(of: url)
            let listed = try DocumentBundle(contentsOf: url).manifest
            #expect(summary.versionCount == listed.versions.count, "\(what)")
            #expect(summary.objectCount == listed.objects.count, "\(what)")
            #expect(summary.objectBytes == listed.objects.values.reduce(0) { $0 + $1.size }, "\(what)")
            #expect(summary.storedBytes == listed.objects.values.reduce(0) { $0 + $1.storedSize }, "\(what)")
            try expectValid("p.dkproj", in: directory)
        }
        try expectCountsAgree("after saves")
        #expect(try Run.docctl(["prune", "p.dkproj", "--keep", "5"], in: directory.url).status == 0)
        try expectCountsAgree("after a prune")
        try FormatThreeFixtures.addSaves(3, to: url, taskCount: 60, from: 40)
        try expectCountsAgree("after saves that follow the prune")
    }
}
