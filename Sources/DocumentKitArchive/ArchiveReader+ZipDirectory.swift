import DocumentKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ArchiveReader {
    /// Reads a zip's central directory before libarchive does, refusing what libarchive
    /// would not: more entries than ``ArchiveLimits/maxEntries`` (libarchive's seekable zip
    /// reader builds a record of every entry before returning the first, so a directory of
    /// millions of entries would cost memory before the count is checked), and names with
    /// a NUL byte (libarchive hands names over as C strings, which end at the NUL, so
    /// `blobs/x\0.txt` would silently become `blobs/x`).
    ///
    /// Files whose end records are not a zip's (tar, compressed tar) are left to libarchive,
    /// as are directories this scan cannot follow: it only refuses, never accepts.
    package static func checkZipDirectory(_ path: String, fileSize: UInt64, limits: ArchiveLimits) throws {
        guard let fd = try? POSIXFile.open(path, flags: O_RDONLY) else { return }
        defer { POSIXFile.close(fd) }
        guard let end = try? StoredZipEndRecord.locate(in: fd, fileSize: fileSize, path: path) else { return }
        let tooMany = ArchiveError(.limitExceeded, "the archive has more than \(limits.maxEntries) entries", path: path)
        guard end.entryCount <= UInt64(max(limits.maxEntries, 0)) else { throw tooMany }
        var reader = BufferedRange(
            fd: fd, range: end.centralDirectoryOffset..<(end.centralDirectoryOffset + end.centralDirectorySize),
            path: path)
        var count = 0
        while let slice = try reader.bytes(StoredZip.centralHeaderSize),
            case let header = Array(slice), ByteCursor.uint32(header, at: 0) == StoredZip.centralHeaderSignature
        {
            count += 1
            guard count <= limits.maxEntries else { throw tooMany }
            let nameLength = Int(ByteCursor.uint16(header, at: 28) ?? 0)
            let otherLength = Int(ByteCursor.uint16(header, at: 30) ?? 0) + Int(ByteCursor.uint16(header, at: 32) ?? 0)
            guard let name = try reader.bytes(nameLength), try reader.bytes(otherLength) != nil else { return }
            if name.contains(0) {
                throw ArchiveError(
                    .unsafeEntry, "entry name contains a NUL byte", path: path,
                    entry: String(decoding: name.prefix { $0 != 0 }, as: UTF8.self))
            }
        }
    }
}

/// Reads a range of a file front to back, in blocks of 1 MiB, however long it is.
private struct BufferedRange {
    let fd: Int32
    let range: Range<UInt64>
    let path: String
    private var buffer: [UInt8] = []
    private var bufferStart: UInt64
    private var position: UInt64

    init(fd: Int32, range: Range<UInt64>, path: String) {
        self.fd = fd
        self.range = range
        self.path = path
        bufferStart = range.lowerBound
        position = range.lowerBound
    }

    /// The next `count` bytes, or `nil` when the range ends first.
    mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8>? {
        guard UInt64(count) <= range.upperBound - position else { return nil }
        if position + UInt64(count) > bufferStart + UInt64(buffer.count) {
            let length = Int(min(max(UInt64(count), 1 << 20), range.upperBound - position))
            buffer = try POSIXFile.read(fd, count: length, at: position, path: path)
            bufferStart = position
        }
        let start = Int(position - bufferStart)
        position += UInt64(count)
        return buffer[start..<(start + count)]
    }
}
