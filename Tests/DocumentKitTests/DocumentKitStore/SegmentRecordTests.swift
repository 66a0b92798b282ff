@testable import DocumentKit
import Foundation
import Testing

/// A bundle's records go into a history segment without their ids and come back with
/// the same ids, computed from their record texts: the frozen format-2 bundles' records,
/// format-1 ones among them, signatures and changes included.
@Suite struct SegmentRecordTests {
    @Test(arguments: ["format-2/garden.dkproj", "format-2/legacy-v2.dkproj", "format-1/garden.dkproj", "board.dkproj"])
    func recordsKeepTheirIdsThroughASegment(sample: String) throws {
        let bundle = try DocumentBundle(contentsOf: Fixtures.sampleDoc(sample))
        var builder = HistorySegment.Builder(firstPlace: 1)
        for version in bundle.manifest.versions {
            try builder.append(.version(id: version.id, record: try version.segmentRecord()))
        }
        let data = try builder.finish()
        let reader = try HistorySegment.Reader(data: data, identify: { try BundleVersion(segmentRecord: $0, number: 0).id })
        for (index, version) in bundle.manifest.versions.enumerated() {
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
        for version in bundle.manifest.versions {
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
        let reader = try HistorySegment.Reader(entry: #require(zip.entry(named: "history/000000000001-000000000008")), in: zip)
        #expect(reader.versionCount == 8)
        #expect(try reader.version(at: 7).id == bundle.manifest.head)
        if ExternalTool.unzip.isAvailable {
            #expect(try ExternalTool.unzip.run(["-p", path, "history/000000000001-000000000008"]).standardOutput == segment)
        }
    }
}
