import Foundation
import Testing

@testable import DocumentKit

/// A bundle's records go into a history segment without their ids and come back with
/// the same ids, computed from their record texts: the frozen format-2 bundles' records,
/// format-1 ones among them, signatures and changes included.
@Suite struct SegmentRecordTests {
    @Test(arguments: ["format-2/garden.dkproj", "format-2/legacy-v2.dkproj", "format-1/garden.dkproj", "board.dkproj"])
    func recordsKeepTheirIdsThroughASegment(sample: String) throws {
        let bundle = try DocumentBundle(contentsOf: Fixtures.sampleDoc(sample))
        var builder = HistorySegment.Builder(firstPlace: 1)
        for version in try bundle.manifest.versions {
            try builder.append(.version(id: version.id, record: try version.segmentRecord()))
        }
        let data = try builder.finish()
        let reader = try HistorySegment.Reader(
            data: data, identify: { try BundleVersion(segmentRecord: $0, number: 0).id })
        for (index, version) in try bundle.manifest.versions.enumerated() {
            let stored = try reader.version(at: index)
            let read = try BundleVersion(segmentRecord: stored.record, number: version.number)
            #expect(read == version, "\(sample) version \(version.number)")
            #expect(stored.id == version.id)
        }
    }

    /// A segment stored in a zip, read through the entry a part at a time, as a bundle
    /// will: the same records, and unzip sees an ordinary stored entry.
    @Test func aSegmentIsReadFromItsEntryAPartAtATime() throws {
        let directory = try TemporaryDirectory()
        let bundle = try DocumentBundle(contentsOf: Fixtures.sampleDoc("format-2/garden.dkproj"))
        var builder = HistorySegment.Builder(firstPlace: 1)
        for version in try bundle.manifest.versions {
            try builder.append(.version(id: version.id, record: try version.segmentRecord()))
        }
        let segment = try builder.finish()
        let path = directory.path("h.zip")
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        let writer = StoredZipWriter(fileDescriptor: fd, path: "h.zip")
        try writer.addEntry(name: "history/000000000001-000000000008", data: segment)
        try writer.finish()
        let zip = try StoredZipReader(path: path)
        let reader = try HistorySegment.Reader(
            entry: #require(zip.entry(named: "history/000000000001-000000000008")), in: zip)
        #expect(reader.versionCount == 8)
        #expect(try reader.version(at: 7).id == bundle.manifest.head)
        if ExternalTool.unzip.isAvailable {
            #expect(
                try ExternalTool.unzip.run(["-p", path, "history/000000000001-000000000008"]).standardOutput == segment)
        }
    }
}

extension SegmentRecordTests {
    /// `Tests/FormatReader/read_segment.py` runs the Python of FORMAT.md §12 on a
    /// segment DocumentKit writes and finds every item DocumentKit's reader finds.
    @Test(.enabled(if: ExternalTool.python3.isAvailable && ExternalTool.zstd.isAvailable, "needs python3 and zstd"))
    func aReaderWrittenFromTheDraftReadsEveryItem() throws {
        let directory = try TemporaryDirectory()
        let garden = try DocumentBundle(contentsOf: Fixtures.sampleDoc("format-2/garden.dkproj"))
        var items: [HistorySegment.Item] = [.pruned(String(repeating: "ab", count: 32))]
        for version in try garden.manifest.versions {
            let tree = try garden.objectData(version.tree)
            items.append(
                .object(
                    .init(
                        digest: ObjectDigest.of(Data("document \(version.number)".utf8)), size: 1_000,
                        storage: .delta(base: version.tree, program: Data("DKD1 program".utf8)))))
            items.append(
                .object(
                    .init(
                        digest: ObjectDigest.of(Data("blob \(version.number)".utf8)), size: 5_000_000,
                        storage: .entry(codec: .zstd, storedSize: 1_000_000, base: nil))))
            items.append(
                .object(
                    .init(digest: version.tree, size: UInt64(tree.count), storage: .identity(tree), foundByPlace: true))
            )
            items.append(.version(id: version.id, record: try version.segmentRecord()))
        }
        var builder = HistorySegment.Builder(firstPlace: 1)
        for item in items { try builder.append(item) }
        let segment = try builder.finish()
        let path = directory.path("segment")
        try segment.write(to: URL(fileURLWithPath: path))
        let repository = Fixtures.repository.path
        let result = try ExternalTool.python3.run([
            "\(repository)/Tests/FormatReader/read_segment.py", "\(repository)/FORMAT.md", path
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = try HistorySegment.Reader(
            data: segment, identify: { try BundleVersion(segmentRecord: $0, number: 0).id }
        ).items().map { item in
            switch item {
            case .version(_, let record): #"{"kind": "V", "record": "\#(ObjectDigest.of(record).hex)"}"#
            case .pruned(let id): #"{"kind": "P", "id": "\#(id)"}"#
            case .object(let object):
                #"{"kind": "O", "digest": "\#(object.digest.hex)", "storage": "\#(Self.storage(object.storage))", "size": \#(object.size)}"#
            }
        }
        #expect(result.output == expected.joined(separator: "\n") + "\n")
        #expect(expected.count == items.count)
    }

    private static func storage(_ storage: HistorySegment.ObjectItem.Storage) -> String {
        switch storage {
        case .identity: "i"
        case .delta: "d"
        case .entry: "e"
        }
    }
}
