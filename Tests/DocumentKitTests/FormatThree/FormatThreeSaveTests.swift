import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// Saves in format 3 (FORMAT.md §12): a history in segments that a save adds to.
@Suite struct FormatThreeSaveTests {
    @Test func savesAddVersionsThatReadBack() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        var metadata = SaveMetadata(author: "t")
        metadata.formatVersion = 3
        let controller = DocumentController(newDocument: Project(name: "one"), at: url)
        _ = try controller.save(controller.document, metadata: metadata)
        for index in 1...40 {
            controller.document.name = "name \(index)"
            _ = try controller.save(controller.document, metadata: metadata)
        }
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(bundle.formatVersion == 3)
        #expect(bundle.headVersion.number == 41)
        #expect(try bundle.read(Project.self).name == "name 40")
        #expect(try bundle.read(Project.self, version: bundle.version(named: "1")).name == "one")
        #expect(try bundle.read(Project.self, version: bundle.version(named: "17")).name == "name 16")
        #expect(try bundle.manifest.versions.count == 41)
    }

    /// Every sixteenth document is a delta against the one 16 places back (FORMAT.md §12
    /// §3); its save folds the programs on the head's chain instead of rebuilding that
    /// document, so it hashes, reads and encodes what any other save does. Counted with
    /// docctl's work meter on a document of 2,000 tasks.
    @Test func aSaveWhoseBaseIsSixteenBackDoesNotRebuildIt() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 2_000, saves: 14)
        #expect(try DocumentBundle(contentsOf: url).headVersion.number == 15)
        // Place 16 takes the head as its base; place 17, the 17th document from the chain's
        // origin, takes place 1's.
        let ordinary = try WorkScalingTests.meteredRun(
            ["set", "p.dkproj", "tasks[3].title", "Sixteenth"], in: directory)
        let sixteenBack = try WorkScalingTests.meteredRun(
            ["set", "p.dkproj", "tasks[4].title", "Seventeenth"], in: directory)
        let bundle = try DocumentBundle(contentsOf: url)
        let record = try #require(try bundle.objectRecord(try bundle.documentDigest(of: bundle.headVersion)))
        let first = try bundle.documentDigest(of: try #require(try bundle.version(atPlace: 1)))
        #expect(record.codec == .delta && record.base == first, "version 17's document is a delta against version 1's")
        let document = try bundle.headDocumentData().count
        for kind in ["hashed-bytes", "read-bytes", "delta-bytes"] {
            let base = ordinary[kind] ?? 0
            let count = sixteenBack[kind] ?? 0
            #expect(
                count < base + document / 2,
                """
                \(kind): \(base) for an ordinary save, \(count) for one whose base is 16 back (a \(document)-byte \
                document)
                """
            )
        }
        try #require(try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).status == 0)
        #expect(try bundle.documentData(of: bundle.headVersion) == bundle.headDocumentData())
    }

    /// A version that returns to an earlier state (the thumbnail attached again) stores its
    /// root tree again, since root trees are found by place, not by digest: the manifest's
    /// counts are what the segments store, and `validate --deep` agrees (it did not: the
    /// crash harness found it).
    @Test func aVersionThatReturnsToAnEarlierStateCountsWhatItStores() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.write(Fixtures.noise(100_000, seed: 1), to: "a.bin", in: directory.url)
        try Fixtures.write(Fixtures.noise(100_000, seed: 2), to: "b.bin", in: directory.url)
        let url = directory.url.appendingPathComponent("p.dkproj")
        var metadata = SaveMetadata(author: "t")
        metadata.formatVersion = 3
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: GeneratedProject.document(taskCount: 4, seed: 1), metadata: metadata)
        for file in ["a.bin", "b.bin", "a.bin"] {
            try #require(
                try Run.docctl(["attach", "p.dkproj", file, "--as", "thumbnail"], in: directory.url).status == 0)
        }
        let result = try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url)
        #expect(result.status == 0, "\(result.standardOutput)")
        let counts = try #require(try DocumentBundle(contentsOf: url).history?.manifest.objects)
        let distinct = try DocumentBundle(contentsOf: url).manifest.objects.count
        #expect(counts.count == distinct + 1, "the tree of versions 2 and 4 is stored twice")
    }
}
