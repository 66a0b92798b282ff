import Foundation
import Testing

@testable import DocumentKit

/// Saves append a segment each and merge the newest ones as the policy says: after 300
/// saves the history is a few segments, each more than twice the next, named by the
/// places they hold, and every version reads back.
@Suite struct HistoryAppendTests {
    private static func identify(_ record: Data) -> VersionID { ObjectDigest.of(record).hex }

    @Test func threeHundredSavesLeaveAFewSegmentsThatHoldEveryVersion() throws {
        var manifest = HistoryManifest(
            contentType: "org.documentkit.project", head: "", versions: 0, pruned: 0, history: [])
        var stored: [String: Data] = [:]
        var ids: [VersionID] = []
        var superseded = 0
        for save in 1...300 {
            let record = Data(
                #"{"message":"Save \#(save)","notes":"\#(String(repeating: "x", count: save % 40))"}"#.utf8)
            let id = Self.identify(record)
            let segments = try manifest.history.map { name in
                let data = stored[name]!
                return HistoryAppend.Segment(
                    name: name, size: UInt64(data.count),
                    reader: try HistorySegment.Reader(data: data, identify: { Self.identify($0) }))
            }
            let append = try HistoryAppend(
                [.version(id: id, record: record)], versionCount: 1, head: id, to: manifest,
                segments: segments, identify: { Self.identify($0) })
            for name in append.merged { stored[name] = nil }
            superseded += append.merged.count
            stored[append.written.name] = append.written.data
            manifest = try HistoryManifest.decode(try JSONEncoder().encode(append.manifest))
            ids.append(id)
            let sizes = manifest.history.map { UInt64(stored[$0]!.count) }
            #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 > 2 * $1 }, "after save \(save): \(sizes)")
        }
        #expect(manifest.versions == 300 && manifest.head == ids.last)
        #expect(manifest.history.count <= 9 && Set(stored.keys) == Set(manifest.history), "\(manifest.history)")
        #expect(superseded > 250, "the newest segments merged as they grew")
        var place = 1
        for name in manifest.history {
            let data = stored[name]!
            let reader = try HistorySegment.Reader(data: data, identify: { Self.identify($0) })
            #expect(reader.firstPlace == UInt64(place))
            for index in 0..<reader.versionCount {
                #expect(try reader.version(at: index).id == ids[place - 1 + index])
            }
            place += reader.versionCount
        }
        #expect(place == 301)
    }
}
