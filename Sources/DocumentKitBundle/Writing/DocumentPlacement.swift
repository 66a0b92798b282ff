import DocumentKitArchive
import DocumentKitCore
import Foundation

/// Where a format-3 save in place writes `document.json` (FORMAT.md §12.4, "The document's
/// slot"): into the slot of the document superseded two saves before, when it fits, and
/// otherwise after the file's end with room after it. Either way the base's document and
/// its room become the free slot the next save writes into.
///
/// So a save writes the document once, and the bundle carries one superseded document
/// besides its live bytes, instead of appending a copy per save until a third of the file
/// is superseded and the save rewrites it, history and all.
struct DocumentPlacement {
    /// The free slot the document is written into; `nil` to append it.
    var slot: Range<UInt64>?
    /// The base's document's slot, which the save supersedes: the next save's free slot.
    var superseded: Range<UInt64>
    /// The room the save appends after the document when it appends it (header included).
    var appendedRoom: UInt64

    /// The placement of `document` in a save appending to `base`; `nil` when `base` has no
    /// `document.json`.
    init?(for document: Data, in base: DocumentBundle) {
        guard let entry = base.zip.entry(named: BundleEntry.document) else { return nil }
        superseded = StoredZipSlot.slot(of: entry, in: base.zip)
        let size = UInt64(document.count)
        if let free = Self.freeSlot(of: base), StoredZipSlot.fits(name: BundleEntry.document, size: size, in: free) {
            slot = free
            appendedRoom = 0
        } else {
            slot = nil
            appendedRoom = StoredZipSlot.room(forEntryOfSize: size)
        }
    }

    /// The bytes the save leaves superseded that are not waste: the slot it writes into
    /// (superseded already) and the one it leaves free for the next save.
    var reclaimedBytes: UInt64 {
        UInt64((slot ?? 0..<0).count) + UInt64(superseded.count)
    }

    /// The free slot `base`'s manifest names, when its bytes still hold superseded
    /// entries alone (``StoredZipSlot/isReusable(_:in:)``) and no reader holds a central
    /// directory older than `base`'s (``ReaderMark``): one that opened the file before the
    /// last save may still read the document there.
    static func freeSlot(of base: DocumentBundle) -> Range<UInt64>? {
        guard let free = base.history?.manifest.freeSlotRange, StoredZipSlot.isReusable(free, in: base.zip),
            !ReaderMark.olderReadersHold(
                before: base.zip.centralDirectoryOffset, asking: base.zip.fileDescriptor)
        else { return nil }
        return free
    }
}
