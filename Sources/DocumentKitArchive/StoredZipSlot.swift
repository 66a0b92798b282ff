import DocumentKitCore

/// The stretch of a stored zip one entry and the room after it take (FORMAT.md §1,
/// "Room"): where a save in place writes `document.json` once the document in it was
/// superseded two saves before, instead of appending a copy of the whole document and
/// rewriting the bundle when superseded documents pile up.
///
/// A slot holds one entry, then, when the entry is shorter than the slot, one room entry
/// (`.stale/room`) to its end, so that a reader walking local headers steps over the
/// difference.
package enum StoredZipSlot {
    /// The room a save appending `document.json` leaves after it, for later documents a
    /// little larger: a thirty-second of its size, and at least 4 KiB.
    package static func room(forEntryOfSize size: UInt64) -> UInt64 {
        max(4 << 10, size / 32)
    }

    /// The room a save rewriting a bundle leaves after `document.json`: as an append's,
    /// for a document of 64 KiB or more, whose rewrite would cost; none for a smaller one,
    /// so that a small bundle stays as small as a bundle written whole.
    package static func roomAfterRewrite(forEntryOfSize size: UInt64) -> UInt64 {
        size >= 64 << 10 ? room(forEntryOfSize: size) : 0
    }

    /// The slot `entry` of `reader` takes: its header and data, and the room entry that
    /// starts where its data ends, if there is one.
    package static func slot(of entry: StoredZipEntry, in reader: StoredZipReader) -> Range<UInt64> {
        guard
            let room = try? StoredZipLocalHeader.read(
                from: reader.fileDescriptor, at: entry.dataEnd, limit: reader.centralDirectoryOffset,
                path: reader.path),
            room.name == StoredZip.roomName
        else { return entry.localHeaderOffset..<entry.dataEnd }
        return entry.localHeaderOffset..<room.end
    }

    /// Whether a save may write over `slot` in `reader`'s file: it lies before the central
    /// directory, no entry of the zip touches it, and it holds superseded entries alone
    /// (names in `.stale/`), back to back from its first byte to its last.
    ///
    /// What says where a slot is (the manifest, FORMAT.md §12.1) is only a hint: this is
    /// what keeps a wrong one from costing a byte of the bundle.
    package static func isReusable(_ slot: Range<UInt64>, in reader: StoredZipReader) -> Bool {
        guard !slot.isEmpty, slot.upperBound <= reader.centralDirectoryOffset,
            !LiveRanges(reader.entries).overlaps(slot)
        else { return false }
        var offset = slot.lowerBound
        // A document and its room, or the one room a killed save's recovery left.
        for _ in 0..<4 {
            guard
                let header = try? StoredZipLocalHeader.read(
                    from: reader.fileDescriptor, at: offset, limit: slot.upperBound, path: reader.path),
                StoredZip.isStale(header.name)
            else { return false }
            offset = header.end
            if offset == slot.upperBound { return true }
        }
        return false
    }

    /// Whether an entry called `name` of `size` bytes fits `slot`: exactly, or with room
    /// for a room entry's header after it.
    package static func fits(name: String, size: UInt64, in slot: Range<UInt64>) -> Bool {
        guard let end = entryEnd(nameLength: name.utf8.count, size: size, at: slot.lowerBound) else { return false }
        return end == slot.upperBound
            || (end < slot.upperBound
                && StoredZip.coveredDataSize(nameLength: StoredZip.roomName.count, regionSize: slot.upperBound - end)
                    != nil)
    }

    /// Where an entry's data would end, its header starting at `offset`; `nil` on overflow.
    static func entryEnd(nameLength: Int, size: UInt64, at offset: UInt64) -> UInt64? {
        let extra = StoredZip.needsZip64(size) ? StoredZip.localZip64ExtraSize : 0
        let (end, overflow) = offset.addingReportingOverflow(UInt64(StoredZip.localHeaderSize + nameLength + extra))
        let (dataEnd, overflowed) = end.addingReportingOverflow(size)
        return overflow || overflowed ? nil : dataEnd
    }
}

/// The byte ranges of a zip's entries, from local header to data end, sorted, to ask
/// whether a range touches any of them.
struct LiveRanges {
    private let ranges: [Range<UInt64>]

    init(_ entries: [StoredZipEntry]) {
        ranges = entries.map { $0.localHeaderOffset..<$0.dataEnd }.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Whether `range` shares a byte with an entry. Entries do not overlap each other
    /// (the reader checks it), so only the last one starting before `range` ends can.
    func overlaps(_ range: Range<UInt64>) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].lowerBound < range.upperBound { low = middle + 1 } else { high = middle }
        }
        return low > 0 && ranges[low - 1].overlaps(range)
    }
}

extension StoredZipSlot {
    /// Covers `stretch` of the file open for writing as `fd` with one room entry, when it
    /// belongs to no entry of `reader` (the zip as it was before a killed save reused the
    /// stretch) and lies before its central directory: what undoing that save leaves
    /// there, so that a reader walking local headers steps over a document never saved.
    /// Returns whether it wrote.
    ///
    /// A stretch the save had not written yet (it failed first, or was killed before) still
    /// holds superseded entries whose data match their CRC-32s, and is left byte for byte
    /// as it was.
    @discardableResult
    package static func reclaim(_ stretch: Range<UInt64>, of reader: StoredZipReader, in fd: Int32) throws -> Bool {
        guard !stretch.isEmpty, stretch.upperBound <= reader.centralDirectoryOffset,
            !LiveRanges(reader.entries).overlaps(stretch),
            !isIntact(stretch, in: fd, path: reader.path)
        else { return false }
        return try StoredZipSweep.cover(stretch, named: StoredZip.roomName, in: fd, path: reader.path)
    }

    /// Whether `stretch` holds superseded entries alone, back to back, each with the
    /// CRC-32 its header records.
    private static func isIntact(_ stretch: Range<UInt64>, in fd: Int32, path: String) -> Bool {
        var offset = stretch.lowerBound
        for _ in 0..<4 {
            guard
                let header = try? StoredZipLocalHeader.read(
                    from: fd, at: offset, limit: stretch.upperBound, path: path),
                StoredZip.isStale(header.name),
                let crc = try? POSIXFile.crc32(of: offset + header.headerSize..<header.end, in: fd, path: path),
                crc == header.crc32
            else { return false }
            offset = header.end
            if offset == stretch.upperBound { return true }
        }
        return false
    }

}
