import DocumentKitCore

/// A local file header as it is in the file, wherever it is: what a streaming reader
/// would take for an entry there.
package struct StoredZipLocalHeader: Equatable {
    /// Where the header starts.
    package var offset: UInt64
    /// The name, as its bytes.
    package var name: [UInt8]
    /// The header's length: 30 bytes, the name and the extra field.
    package var headerSize: UInt64
    /// The data's size, from the header (its zip64 extra field when the 32-bit field is
    /// saturated).
    package var size: UInt64
    /// The CRC-32 the header records.
    package var crc32: UInt32

    /// Where the entry's data ends: where a streaming reader looks for the next header.
    package var end: UInt64 { offset + headerSize + size }

    /// Reads the local header at `offset` of `fd`. `nil` when there is none: no signature,
    /// a header or data that would pass `limit`, or a data descriptor (the size is then
    /// not in the header).
    package static func read(from fd: Int32, at offset: UInt64, limit: UInt64, path: String) throws
        -> StoredZipLocalHeader?
    {
        let fixed = UInt64(StoredZip.localHeaderSize)
        guard offset < limit, limit - offset >= fixed else { return nil }
        var cursor = ByteCursor(try POSIXFile.read(fd, count: StoredZip.localHeaderSize, at: offset, path: path))
        do {
            guard try cursor.uint32() == StoredZip.localHeaderSignature else { return nil }
            try cursor.skip(2)  // version needed
            let flags = try cursor.uint16()
            try cursor.skip(6)  // method, DOS time and date
            let crc32 = try cursor.uint32()
            let compressedSize = try cursor.uint32()
            try cursor.skip(4)  // uncompressed size
            let nameLength = UInt64(try cursor.uint16())
            let extraLength = UInt64(try cursor.uint16())
            guard flags & StoredZip.dataDescriptorFlag == 0, limit - offset >= fixed + nameLength + extraLength else {
                return nil
            }
            let tail = try POSIXFile.read(fd, count: Int(nameLength + extraLength), at: offset + fixed, path: path)
            var size = UInt64(compressedSize)
            if compressedSize == StoredZip.saturated32 {
                guard let zip64 = zip64CompressedSize(in: Array(tail[Int(nameLength)...])) else { return nil }
                size = zip64
            }
            let header = StoredZipLocalHeader(
                offset: offset, name: Array(tail[..<Int(nameLength)]),
                headerSize: fixed + nameLength + extraLength, size: size, crc32: crc32)
            let (end, overflow) = (offset + header.headerSize).addingReportingOverflow(size)
            return !overflow && end <= limit ? header : nil
        } catch let error as ArchiveError {
            throw error
        } catch {
            return nil  // cut short: no header a reader could use
        }
    }

    /// The compressed size in a local header's zip64 extra field, which holds the
    /// uncompressed size first (APPNOTE 4.5.3).
    private static func zip64CompressedSize(in extra: [UInt8]) -> UInt64? {
        var cursor = ByteCursor(extra)
        while cursor.remaining > 0 {
            guard let id = try? cursor.uint16(), let length = try? cursor.uint16(),
                let field = try? cursor.bytes(Int(length))
            else { return nil }
            guard id == StoredZip.zip64ExtraID else { continue }
            var sizes = ByteCursor(Array(field))
            guard (try? sizes.uint64()) != nil, let compressed = try? sizes.uint64() else { return nil }
            return compressed
        }
        return nil
    }
}
