import DocumentKitCore

/// Reads and checks a stored zip's central directory, turning its records into
/// ``StoredZipEntry`` values.
package enum StoredZipCentralDirectory {
    /// The largest central directory record: fixed part, then name, extra and comment of at
    /// most 65,535 bytes each. Bounds what a claimed directory size may be.
    private static let maxRecordSize = UInt64(StoredZip.centralHeaderSize + 3 * 0xFFFF)

    /// Reads the central directory `end` locates and returns its entries.
    package static func read(
        from fd: Int32, end: StoredZipEndRecord, fileSize: UInt64, limits: ArchiveLimits, path: String
    ) throws -> [StoredZipEntry] {
        guard end.entryCount <= UInt64(max(limits.maxEntries, 0)) else {
            throw ArchiveError(
                .limitExceeded, "the archive has \(end.entryCount) entries; the limit is \(limits.maxEntries)",
                path: path)
        }
        let count = Int(end.entryCount)
        let smallest = end.entryCount.multipliedReportingOverflow(by: UInt64(StoredZip.centralHeaderSize))
        let largest = end.entryCount.multipliedReportingOverflow(by: maxRecordSize)
        guard !smallest.overflow, end.centralDirectorySize >= smallest.partialValue,
            largest.overflow || end.centralDirectorySize <= largest.partialValue,
            let size = Int(exactly: end.centralDirectorySize)
        else {
            throw ArchiveError(
                .malformed, "a central directory of \(end.centralDirectorySize) bytes cannot hold \(count) entries",
                path: path)
        }
        var cursor = ByteCursor(try POSIXFile.read(fd, count: size, at: end.centralDirectoryOffset, path: path))
        var entries: [StoredZipEntry] = []
        entries.reserveCapacity(count)
        var collisionKeys = Set<String>(minimumCapacity: count)
        var totalBytes: UInt64 = 0
        for index in 0..<count {
            guard ByteCursor.uint32(cursor.bytes, at: cursor.position) == StoredZip.centralHeaderSignature else {
                throw ArchiveError(
                    .malformed, "central directory record \(index + 1) of \(count) has no valid signature", path: path)
            }
            let record: CentralRecord
            do {
                record = try CentralRecord(&cursor)
            } catch {
                throw ArchiveError(
                    .malformed, "central directory record \(index + 1) of \(count) is cut short", path: path)
            }
            let entry: StoredZipEntry
            do {
                entry = try record.entry(
                    index: index, centralDirectoryOffset: end.centralDirectoryOffset, fileSize: fileSize)
            } catch {
                throw error.addingArchiveContext(path: path, entry: record.displayName)
            }
            guard entry.size <= limits.maxEntryBytes else {
                throw ArchiveError(
                    .limitExceeded, "the entry holds \(entry.size) bytes; the limit is \(limits.maxEntryBytes)",
                    path: path, entry: entry.name)
            }
            let (newTotal, overflow) = totalBytes.addingReportingOverflow(entry.size)
            totalBytes = newTotal
            guard !overflow, totalBytes <= limits.maxTotalBytes else {
                throw ArchiveError(
                    .limitExceeded, "the entries hold more than \(limits.maxTotalBytes) bytes in total", path: path)
            }
            guard collisionKeys.insert(ArchiveEntryName.collisionKey(entry.name)).inserted else {
                throw ArchiveError(
                    .duplicateEntry,
                    "another entry has the same name, or one differing only in case or Unicode normalization",
                    path: path, entry: entry.name)
            }
            entries.append(entry)
        }
        guard cursor.remaining == 0 else {
            throw ArchiveError(
                .malformed, "the central directory has \(cursor.remaining) bytes after its last record", path: path)
        }
        try checkNoOverlap(entries, path: path)
        return entries
    }

    /// Refuses entries whose bytes overlap: each entry's data must end before the next
    /// local header begins, so that no byte belongs to two entries.
    private static func checkNoOverlap(_ entries: [StoredZipEntry], path: String) throws {
        let ordered = entries.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (first, second) in zip(ordered, ordered.dropFirst()) where first.dataEnd > second.localHeaderOffset {
            throw ArchiveError(
                .malformed, "its data overlaps the entry '\(second.name)'", path: path, entry: first.name)
        }
    }
}
