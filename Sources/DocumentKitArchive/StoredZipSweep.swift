import DocumentKitCore

/// Step A5 of a save in place (FORMAT.md §8): once the save has happened, the bytes it
/// superseded are made unreadable as live entries to a reader that walks local headers
/// from the start of the file (see ``StoredZip/staleName(length:)``).
///
/// Only bytes the new central directory does not refer to are written, so seekable readers
/// and the saved zip are unaffected whenever the sweep stops. A reader that read the old
/// central directory before the save goes on reading the superseded entries' data, which
/// does not move: ``StoredZipReader/verifyLocalHeader(_:allowingStaleName:)`` accepts
/// their stale names.
package enum StoredZipSweep {
    /// Renames the local header of each of `region`'s entries to its stale name and then
    /// covers the old directory and end records with the `.stale/directory` entry.
    ///
    /// The old directory is what says which headers to rename, so it is covered only after
    /// the renames are on disk (`synchronize` flushes the file): a covered directory then
    /// means a finished sweep, after a power loss too. A header that does not carry its
    /// entry's name (renamed already, or not what the directory said) is left as it is, so
    /// sweeping a region twice writes nothing the second time.
    ///
    /// - Returns: whether anything was written.
    @discardableResult
    package static func sweep(
        _ region: StoredZipSupersededRegion, in fd: Int32, path: String,
        synchronize: () throws -> Void
    ) throws -> Bool {
        var renamed = false
        for entry in region.entries {
            if try markStale(entry, in: fd, path: path) { renamed = true }
        }
        if renamed { try synchronize() }
        guard try !isCovered(region.directory, in: fd, path: path) else { return renamed }
        return try cover(region.directory, in: fd, path: path) || renamed
    }

    /// The region the save that wrote `reader`'s central directory left, when that save's
    /// sweep did not finish (it was killed, or failed): for the next save to finish it.
    /// `nil` when there is nothing to finish: the zip was written in one go, that save's
    /// old directory is covered already, or the bytes before its entries are not a zip's
    /// end records.
    ///
    /// Its cost is that save's, not the file's history: it follows back from the central
    /// directory the entries that save appended (back to back, ending at the directory),
    /// reads the end records just before them and the first bytes of the directory they
    /// name, and reads that directory only when it is not covered yet.
    package static func unfinishedRegion(before reader: StoredZipReader, in fd: Int32, path: String)
        throws -> StoredZipSupersededRegion?
    {
        guard let start = appendStart(of: reader) else { return nil }
        // Not an end record there (a zip another tool wrote with gaps): nothing of ours to finish.
        guard let end = try? StoredZipEndRecord.locate(in: fd, fileSize: start, path: path) else { return nil }
        let directory = end.centralDirectoryOffset..<start
        guard try !isCovered(directory, in: fd, path: path) else { return nil }
        // Not covered: the save was cut short. What follows is read only then.
        let live = LiveRanges(reader.entries)
        guard !live.overlaps(directory),
            let old = try? StoredZipCentralDirectory.read(
                from: fd, end: end, fileSize: start, limits: .default, path: path)
        else { return nil }
        let liveOffsets = Set(reader.entries.map(\.localHeaderOffset))
        let superseded = old.filter { entry in
            // Only the name is written: it must lie in no live entry, whatever the old directory says.
            !liveOffsets.contains(entry.localHeaderOffset)
                && !live.overlaps(
                    entry.localHeaderOffset..<entry.localHeaderOffset
                        + UInt64(StoredZip.localHeaderSize + entry.name.utf8.count))
        }
        return StoredZipSupersededRegion(entries: superseded, directory: directory)
    }

    /// Whether `directory` is covered by the `.stale/directory` entry, its data reaching
    /// exactly to the region's end.
    package static func isCovered(_ directory: Range<UInt64>, in fd: Int32, path: String) throws -> Bool {
        guard
            let header = try StoredZipLocalHeader.read(
                from: fd, at: directory.lowerBound, limit: directory.upperBound, path: path)
        else { return false }
        return header.name == StoredZip.supersededDirectoryName && header.end == directory.upperBound
    }

    /// Writes `entry`'s stale name over its name in its local header, when the header is
    /// there and carries that name; returns whether it did.
    private static func markStale(_ entry: StoredZipEntry, in fd: Int32, path: String) throws -> Bool {
        let name = Array(entry.name.utf8)
        guard let stale = StoredZip.staleName(length: name.count) else { return false }
        let header = try POSIXFile.read(
            fd, count: StoredZip.localHeaderSize + name.count, at: entry.localHeaderOffset, path: path)
        guard ByteCursor.uint32(header, at: 0) == StoredZip.localHeaderSignature,
            ByteCursor.uint16(header, at: 26).map(Int.init) == name.count,
            header[StoredZip.localHeaderSize...].elementsEqual(name)
        else { return false }
        try write(stale, at: entry.localHeaderOffset + UInt64(StoredZip.localHeaderSize), to: fd, path: path)
        return true
    }

    /// Writes the `.stale/directory` header over the first bytes of `directory`, with the
    /// CRC-32 of the rest, which becomes its data unchanged. Returns whether it did.
    private static func cover(_ directory: Range<UInt64>, in fd: Int32, path: String) throws -> Bool {
        try cover(directory, named: StoredZip.supersededDirectoryName, in: fd, path: path)
    }

    /// Writes a local header called `name` over the first bytes of `region`, with the
    /// CRC-32 of the rest, which becomes its data unchanged. Returns whether it did: not
    /// when the region is too short for the header.
    package static func cover(_ region: Range<UInt64>, named name: [UInt8], in fd: Int32, path: String) throws
        -> Bool
    {
        let regionSize = region.upperBound - region.lowerBound
        guard let dataSize = StoredZip.coveredDataSize(nameLength: name.count, regionSize: regionSize) else {
            return false
        }
        let crc32 = try POSIXFile.crc32(of: region.upperBound - dataSize..<region.upperBound, in: fd, path: path)
        guard
            let header = StoredZip.coveringHeader(
                name: name, regionSize: regionSize, at: region.lowerBound, crc32: crc32)
        else { return false }
        try write(header, at: region.lowerBound, to: fd, path: path)
        return true
    }

    private static func write(_ bytes: [UInt8], at offset: UInt64, to fd: Int32, path: String) throws {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws in try POSIXFile.write(fd, buffer, at: offset, path: path) }
        }.get()
    }

    /// Where the entries the last save appended begin: follows back from the central
    /// directory through entries that end where the next begins. `nil` when they reach
    /// the start of the file, as in a zip written in one go.
    private static func appendStart(of reader: StoredZipReader) -> UInt64? {
        var startByEnd: [UInt64: UInt64] = [:]
        startByEnd.reserveCapacity(reader.entries.count)
        for entry in reader.entries { startByEnd[entry.dataEnd] = entry.localHeaderOffset }
        var position = reader.centralDirectoryOffset
        // Every header is at least 30 bytes, so each step goes strictly back.
        while position > 0 {
            if let start = startByEnd[position] {
                position = start
            } else if let start = roomStart(endingAt: position, in: reader) {
                // Room the save appended after its document (FORMAT.md §1, "Room").
                position = start
            } else {
                break
            }
        }
        return position > 0 ? position : nil
    }

    /// Where the room entry ending at `end` starts, when one follows an entry directly:
    /// the only bytes between a save's appended entries that are none of them.
    private static func roomStart(endingAt end: UInt64, in reader: StoredZipReader) -> UInt64? {
        guard
            let before = reader.entries.filter({ $0.dataEnd < end }).max(by: { $0.dataEnd < $1.dataEnd }),
            let header = try? StoredZipLocalHeader.read(
                from: reader.fileDescriptor, at: before.dataEnd, limit: end, path: reader.path),
            header.name == StoredZip.roomName, header.end == end
        else { return nil }
        return header.offset
    }
}
