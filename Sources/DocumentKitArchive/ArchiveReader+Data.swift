import DocumentKitCore
import Foundation

extension ArchiveReader {
    /// Passes the current entry's data to `body`, block by block, as libarchive
    /// decompresses it. Does nothing when there is no current entry, or its data was read.
    ///
    /// Every block is counted against ``ArchiveLimits`` *before* `body` sees it: the entry's
    /// size, the total of all entries, and the expansion ratio against the archive file's
    /// size. Holes of sparse tar entries are passed on as zeros, and counted too.
    ///
    /// - Throws: `.limitExceeded`; `.checksumMismatch` when the entry's CRC does not match
    ///   (libarchive reports it as a warning after the last block, which counts as damage);
    ///   `.truncated` or `.malformed` for other damage; or what `body` throws.
    package func readData(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch archive {
        case .none: return
        case .some(let archive): try readData(from: archive, body)
        }
    }

    /// ``readData(_:)`` through `archive`, the reader's handle.
    private func readData(
        from archive: borrowing LibArchiveReader, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard var entry = current, !entry.finished else { return }
        defer { current = entry }
        if let size = entry.declaredSize, size > limits.maxEntryBytes {
            throw limitError(
                "the entry declares \(size) bytes; the limit is \(limits.maxEntryBytes)", entry: entry.name)
        }
        while true {
            let next: LibArchiveReader.Block?
            do {
                // The locale is set around libarchive only; `body` runs in the caller's.
                next = try LibArchive.withUTF8Locale { () throws in
                    try archive.readDataBlock(entry: entry.name)
                }
            } catch {
                entry.finished = true
                throw error
            }
            guard let block = next else {
                entry.finished = true
                return
            }
            // A block that starts past what was read leaves a hole (a sparse entry).
            if block.offset > 0, UInt64(block.offset) > entry.bytesRead {
                try deliverZeros(UInt64(block.offset) - entry.bytesRead, to: &entry, body)
            }
            guard let start = block.start, block.count > 0 else { continue }
            try count(UInt64(block.count), in: &entry)
            try body(UnsafeRawBufferPointer(start: start, count: block.count))
            reportFileBytes(archive)
        }
    }

    /// The current entry's data, refusing entries larger than `limit` bytes.
    ///
    /// An entry that declares more is refused before any byte is read. The buffer is sized
    /// from the declared size only up to what the archive can expand to under the limits:
    /// a few hundred bytes of tar header may declare a gigabyte.
    package func readData(limit: Int) throws -> Data {
        var data = Data()
        if let size = current?.declaredSize {
            guard size <= UInt64(max(limit, 0)) else {
                throw limitError("the entry declares \(size) bytes; the limit is \(limit)", entry: current?.name)
            }
            data.reserveCapacity(Int(clamping: min(size, limits.maxExpandedBytes(fromCompressed: fileSize))))
        }
        try readData { bytes in
            guard data.count + bytes.count <= limit else {
                throw limitError("the entry holds more than \(limit) bytes", entry: current?.name)
            }
            data.append(contentsOf: bytes)
        }
        return data
    }

    /// Counts `size` more bytes of `entry`, throwing before any limit is passed.
    /// Counts, for progress, the bytes of the archive file libarchive has read: what an
    /// import knows the total of (its file's size) even when the data is compressed.
    private func reportFileBytes(_ archive: borrowing LibArchiveReader) {
        let position = min(UInt64(clamping: archive.archiveBytesRead), fileSize)
        guard position > fileBytesReported else { return }
        ProgressMeter.advance(.read, by: Int(position - fileBytesReported))
        fileBytesReported = position
    }

    private func count(_ size: UInt64, in entry: inout CurrentEntry) throws {
        let entryBytes = entry.bytesRead + size
        guard entryBytes <= limits.maxEntryBytes else {
            throw limitError("the entry holds more than \(limits.maxEntryBytes) bytes", entry: entry.name)
        }
        let total = totalBytes + size
        guard total <= limits.maxTotalBytes else {
            throw limitError("the entries hold more than \(limits.maxTotalBytes) bytes in total", entry: entry.name)
        }
        guard total <= limits.maxExpandedBytes(fromCompressed: fileSize) else {
            throw limitError(
                "the archive expands to more than \(limits.maxExpansionRatio) times its size of \(fileSize) bytes",
                entry: entry.name)
        }
        entry.bytesRead = entryBytes
        totalBytes = total
    }

    private func deliverZeros(
        _ count: UInt64, to entry: inout CurrentEntry, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var remaining = count
        while remaining > 0 {
            let chunk = Int(min(remaining, UInt64(Self.zeros.count)))
            try self.count(UInt64(chunk), in: &entry)
            try Self.zeros.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<chunk])) }
            remaining -= UInt64(chunk)
        }
    }

    private static let zeros = [UInt8](repeating: 0, count: 1 << 16)

    private func limitError(_ message: String, entry: String?) -> ArchiveError {
        ArchiveError(.limitExceeded, message, path: path, entry: entry)
    }
}
