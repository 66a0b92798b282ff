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
        let reader = try HistorySegment.Reader(length: UInt64(data.count), identify: { try BundleVersion(segmentRecord: $0, number: 0).id }) { offset, length in
            data.subdata(in: Int(offset)..<min(Int(offset) + length, data.count))
        }
        for (index, version) in bundle.manifest.versions.enumerated() {
            let stored = try reader.version(at: index)
            let read = try BundleVersion(segmentRecord: stored.record, number: version.number)
            #expect(read == version, "\(sample) version \(version.number)")
            #expect(stored.id == version.id)
        }
    }
}
