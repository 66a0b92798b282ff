import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// How a save keeps old documents cheap: the document the head held until now is stored
/// again as a delta against the new head's document (a reverse delta), so a history of
/// near-identical versions costs what changed, while the head's document, which every
/// reader wants, stays stored whole.
///
/// A chain of deltas therefore always runs from older documents towards newer ones and
/// ends at a document stored whole (FORMAT.md §4.1): reading version N of a history of H
/// applies H − N programs, and reading the head applies none.
package enum DocumentHistoryEncoding {
    /// Objects a save stores anew besides its new ones: the previous head document as a
    /// delta (when that saves at least half of what it occupies now), and the new head
    /// document whole if the base holds it as a delta (a restore of an old version).
    ///
    /// `oldDigest` is the old document's digest when the caller checked the text against
    /// it, `newDigest` the new one's when the caller hashed it; each is computed otherwise.
    package static func reencode(
        oldDocument: Data, oldDigest: ObjectDigest? = nil, newDocument: Data, newDigest: ObjectDigest? = nil,
        in base: DocumentBundle
    ) throws -> [ObjectDigest: TreePlanner.PendingObject] {
        // Hashed, unless checked, not taken from the head's tree: a `document.json` entry
        // that disagrees with the head's object must never become that object's delta.
        let oldDigest = oldDigest ?? ObjectDigest.of(oldDocument)
        let newDigest = newDigest ?? ObjectDigest.of(newDocument)
        guard oldDigest != newDigest else { return [:] }
        var objects: [ObjectDigest: TreePlanner.PendingObject] = [:]
        if try base.manifest.objects[newDigest]?.codec == .delta {
            objects[newDigest] = .data(newDocument)
        }
        guard let record = try base.manifest.objects[oldDigest], record.codec != .delta,
            UInt64(oldDocument.count) <= BundleWriter.inMemoryCompressionLimit,
            UInt64(newDocument.count) <= BundleWriter.inMemoryCompressionLimit,
            record.storedSize >= BundleWriter.compressionFloor
        else { return objects }
        let program = ObjectDelta.encode(target: oldDocument, base: newDocument)
        guard program.count <= oldDocument.count + ObjectDelta.maxOverhead else { return objects }
        let stored = try ZstdCodec.compress(program)
        if UInt64(stored.count) * 2 <= record.storedSize {
            objects[oldDigest] = .encoded(
                stored,
                ObjectRecord(size: record.size, codec: .delta, storedSize: UInt64(stored.count), base: newDigest))
        }
        return objects
    }
}
