import DocumentKitCore
import Foundation

extension StoredZipReader {
    /// Reads all of `entry`'s bytes, after checking its local header.
    ///
    /// - Parameter verifyCRC: compare the bytes' CRC-32 with the central directory's
    ///   (`.checksumMismatch` if they differ). Turn off only when a stronger digest is
    ///   checked anyway.
    package func readData(_ entry: StoredZipEntry, verifyCRC: Bool = true) throws -> Data {
        try verifyLocalHeader(entry)
        WorkMeter.count(.readBytes, Int(clamping: entry.size))
        guard let count = Int(exactly: entry.size) else {
            throw ArchiveError(
                .limitExceeded, "the entry is too large to hold in memory", path: path, entry: entry.name)
        }
        var data = LargeBuffer.zeroed(count: count)
        let read = try data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            Result { () throws in
                try POSIXFile.read(fileDescriptor, into: buffer, at: entry.dataOffset, path: path)
            }
        }.mapError { $0.addingArchiveContext(entry: entry.name) }.get()
        guard read == count else { throw truncated(entry, at: entry.dataOffset + UInt64(read)) }
        if verifyCRC { try checkCRC(CRC32.checksum(data), of: entry) }
        ProgressMeter.advance(.read, by: count)
        return data
    }

    /// Passes `entry`'s bytes to `body` in blocks of at most `blockSize` bytes, after
    /// checking its local header.
    ///
    /// With `verifyCRC`, a mismatch is thrown after the last block has been passed on:
    /// callers that act on the bytes before the end must be ready to undo that.
    ///
    /// 256 KiB blocks: as fast to read as larger ones, and a push streams one file per
    /// transfer at once (eight by default), each with a block of its own.
    package func stream(
        _ entry: StoredZipEntry, blockSize: Int = 1 << 18, verifyCRC: Bool = true,
        _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try verifyLocalHeader(entry)
        WorkMeter.count(.readBytes, Int(clamping: entry.size))
        let capacity = Int(clamping: min(UInt64(max(blockSize, 1)), max(entry.size, 1)))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var crc = CRC32()
        var offset = entry.dataOffset
        while offset < entry.dataEnd {
            let chunk = UnsafeMutableRawBufferPointer(
                rebasing: buffer[0..<Int(min(UInt64(capacity), entry.dataEnd - offset))])
            let read: Int
            do {
                read = try POSIXFile.read(fileDescriptor, into: chunk, at: offset, path: path)
            } catch {
                throw error.addingArchiveContext(entry: entry.name)
            }
            guard read == chunk.count else { throw truncated(entry, at: offset + UInt64(read)) }
            let bytes = UnsafeRawBufferPointer(chunk)
            if verifyCRC { crc.update(bytes) }
            try body(bytes)
            offset += UInt64(read)
            ProgressMeter.advance(.read, by: read)
        }
        if verifyCRC { try checkCRC(crc.value, of: entry) }
    }

    private func checkCRC(_ computed: UInt32, of entry: StoredZipEntry) throws {
        guard computed == entry.crc32 else {
            throw ArchiveError(
                .checksumMismatch,
                """
                the data's CRC-32 is 0x\(Self.hexadecimal(computed)); the archive records \
                0x\(Self.hexadecimal(entry.crc32))
                """,
                path: path, entry: entry.name)
        }
    }

    private func truncated(_ entry: StoredZipEntry, at offset: UInt64) -> ArchiveError {
        ArchiveError(
            .truncated, "the file ends at byte \(offset), inside the entry's data", path: path, entry: entry.name)
    }
}

extension StoredZipReader {
    /// `length` bytes of `entry`'s data from `offset` (fewer at its end), without
    /// checking its CRC-32: for entries whose parts carry checks of their own (a history
    /// segment's index and frames), read a part at a time.
    package func readRange(of entry: StoredZipEntry, offset: UInt64, length: Int) throws -> Data {
        guard offset <= entry.size else { throw truncated(entry, at: entry.dataOffset + offset) }
        let count = Int(min(UInt64(max(length, 0)), entry.size - offset))
        WorkMeter.count(.readBytes, count)
        var data = Data(count: count)
        let read = try data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            Result { () throws in
                try POSIXFile.read(fileDescriptor, into: buffer, at: entry.dataOffset + offset, path: path)
            }
        }.mapError { $0.addingArchiveContext(entry: entry.name) }.get()
        guard read == count else { throw truncated(entry, at: entry.dataOffset + offset + UInt64(read)) }
        return data
    }
}
