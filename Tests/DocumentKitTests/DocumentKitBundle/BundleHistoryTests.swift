import Foundation
import Testing

@testable import DocumentKit

/// A format-3 history read from a zip's segments: the garden's versions by place, its
/// head, and each version's root tree by place, from two segments named by their places.
@Suite struct BundleHistoryTests {
    @Test func versionsAndTreesAreFoundByPlaceAcrossSegments() throws {
        let directory = try TemporaryDirectory()
        let garden = try DocumentBundle(contentsOf: Fixtures.sampleDoc("format-2/garden.dkproj"))
        let versions = try garden.manifest.versions
        var names: [String] = []
        var segments: [Data] = []
        for range in [0..<5, 5..<versions.count] {
            var builder = HistorySegment.Builder(firstPlace: UInt64(range.lowerBound + 1))
            for version in versions[range] {
                let tree = try garden.objectData(version.tree)
                try builder.append(
                    .object(
                        .init(
                            digest: version.tree, size: UInt64(tree.count), storage: .identity(tree), foundByPlace: true
                        )))
                try builder.append(.version(id: version.id, record: try version.segmentRecord()))
            }
            segments.append(try builder.finish())
            names.append(HistoryManifest.segmentName(first: range.lowerBound + 1, last: range.upperBound))
        }
        let manifest = HistoryManifest(
            contentType: try garden.manifest.contentType, head: try garden.manifest.head, versions: versions.count,
            pruned: 0, history: names)
        let path = directory.path("h.zip")
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        let writer = StoredZipWriter(fileDescriptor: fd, path: "h.zip")
        for (name, data) in zip(names, segments) { try writer.addEntry(name: name, data: data) }
        try writer.addEntry(name: "manifest.json", data: try JSONEncoder().encode(manifest))
        try writer.finish()

        let zip = try StoredZipReader(path: path)
        let decoded = try HistoryManifest.decode(try zip.readData(#require(zip.entry(named: "manifest.json"))))
        #expect(
            decoded == manifest && names == ["history/000000000001-000000000005", "history/000000000006-000000000008"])
        let history = try BundleHistory(manifest: decoded, zip: zip)
        for version in versions {
            let located = try history.version(atPlace: version.number)
            #expect(located.version == version)
            #expect(located.placedTree?.digest == version.tree)
        }
        #expect(try history.headVersion().version == garden.headVersion)
        #expect(throws: DocumentKitError.self) { try history.version(atPlace: 9) }
    }

    @Test func aManifestWhoseSegmentsDoNotFollowEachOtherIsRefused() throws {
        func manifest(_ history: [String], versions: Int, pruned: Int = 0) throws -> Data {
            try JSONEncoder().encode(
                HistoryManifest(
                    contentType: "org.documentkit.project", head: String(repeating: "a", count: 64),
                    versions: versions, pruned: pruned, history: history))
        }
        #expect(
            try HistoryManifest.decode(manifest(["history/000000000003-000000000004"], versions: 2, pruned: 2)).versions
                == 2)
        for (history, versions) in [
            (["history/000000000002-000000000004"], 3),
            (["history/000000000001-000000000002", "history/000000000004-000000000005"], 4),
            (["history/000000000001-000000000002"], 3), (["history/1-2"], 2), ([], 0)
        ] {
            #expect(throws: DocumentKitError.self, "\(history)") {
                try HistoryManifest.decode(manifest(history, versions: versions))
            }
        }
    }
}
