import DocumentKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Core's file calls as archive readers need them: where a file that ends early or is not
/// a regular file says something about the archive (``ArchiveError``), not the system.
extension POSIXFile {
    /// The size of the regular file open as `fd`, from `fstat(2)`.
    ///
    /// Throws `.notAnArchive` for a directory, device or pipe: archives are regular files,
    /// and offsets into anything else mean nothing.
    package static func regularFileSize(_ fd: Int32, path: String) throws -> UInt64 {
        let status = try status(fd, path: path)
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw ArchiveError(.notAnArchive, "not a regular file", path: path)
        }
        return UInt64(clamping: status.st_size)
    }

    /// Reads exactly `count` bytes from `offset`; throws `.truncated` if the file ends first.
    package static func read(_ fd: Int32, count: Int, at offset: UInt64, path: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let done = try bytes.withUnsafeMutableBytes { buffer in try read(fd, into: buffer, at: offset, path: path) }
        guard done == count else {
            throw ArchiveError(
                .truncated, "file ends at byte \(offset + UInt64(done)); expected \(count) bytes at \(offset)",
                path: path)
        }
        return bytes
    }

    /// The CRC-32 of the bytes of `range`, read a block at a time; throws `.truncated` if
    /// the file ends first.
    package static func crc32(of range: Range<UInt64>, in fd: Int32, path: String) throws -> UInt32 {
        var crc = CRC32()
        let block = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Int(min(UInt64(1 << 20), max(range.upperBound - range.lowerBound, 1))), alignment: 16)
        defer { block.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let chunk = UnsafeMutableRawBufferPointer(
                rebasing: block[0..<Int(min(UInt64(block.count), range.upperBound - offset))])
            let read = try read(fd, into: chunk, at: offset, path: path)
            guard read == chunk.count else {
                throw ArchiveError(
                    .truncated, "the file ends at byte \(offset + UInt64(read)), inside superseded bytes", path: path)
            }
            crc.update(UnsafeRawBufferPointer(chunk))
            offset += UInt64(read)
        }
        return crc.value
    }
}
