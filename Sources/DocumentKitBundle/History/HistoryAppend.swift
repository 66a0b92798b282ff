import DocumentKitCore
import Foundation

/// What a save writes into a format-3 history (FORMAT.md §12.4): one new segment with
/// the save's items, merged with the newest segments while `HistoryPolicy` says so, and
/// the manifest that names the result. The segments it does not name again are
/// superseded; every other segment stays where it is, unread.
package struct HistoryAppend {
    /// A segment as the history holds it: its entry's name, its stored size, its reader.
    package struct Segment {
        package var name: String
        package var size: UInt64
        package var reader: HistorySegment.Reader

        package init(name: String, size: UInt64, reader: HistorySegment.Reader) {
            self.name = name
            self.size = size
            self.reader = reader
        }
    }

    /// The segment to write: its entry's name and its bytes.
    package var written: (name: String, data: Data)
    /// The segments merged into it, superseded by this save.
    package var merged: [String]
    /// The manifest naming the segments after the save.
    package var manifest: HistoryManifest

    /// Adds `items` (holding `versionCount` versions, the last of which is `head`) after
    /// the history `manifest` names, whose segments are `segments`, oldest first.
    package init(
        _ items: [HistorySegment.Item], versionCount: Int, head: VersionID, to manifest: HistoryManifest,
        segments: [Segment], identify: @escaping @Sendable (Data) throws -> VersionID
    ) throws {
        let first = manifest.pruned + manifest.versions + 1
        var builder = HistorySegment.Builder(firstPlace: UInt64(first))
        for item in items { try builder.append(item) }
        var data = try builder.finish()
        let mergeCount = HistoryPolicy.segmentsToMerge(sizes: segments.map(\.size) + [UInt64(data.count)])
        // The newest segments the policy merges, the new one among them.
        let older = mergeCount > 1 ? Array(segments.suffix(mergeCount - 1)) : []
        var start = first
        if !older.isEmpty {
            let fresh = try HistorySegment.Reader(data: data, identify: identify)
            data = try HistorySegment.Builder.merging(older.map(\.reader) + [fresh])
            start = Int(older[0].reader.firstPlace)
        }
        let last = first + versionCount - 1
        let name = HistoryManifest.segmentName(first: start, last: last)
        written = (name, data)
        merged = older.map(\.name)
        var next = manifest
        for case .object(let object) in items { next.objects.add(object.record) }
        next.history = Array(manifest.history.dropLast(older.count)) + [name]
        next.versions += versionCount
        next.head = head
        self.manifest = next
    }
}
