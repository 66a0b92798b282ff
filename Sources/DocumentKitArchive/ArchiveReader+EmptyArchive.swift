import DocumentKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ArchiveReader {
    /// Refuses a file that libarchive read as an empty tar but that holds data.
    ///
    /// libarchive's tar reader accepts a first block of 512 zero bytes as "end of archive",
    /// so any file starting with zeros (an ISO 9660 image, a disk image) opens as a tar
    /// with no entries. A real empty tar is zeros throughout; an empty zip starts with its
    /// end record's signature. So: find the first non-zero byte of the (decompressed)
    /// stream; past the first block, this is not an archive.
    package func checkEmptyArchive() throws {
        guard let raw = LibArchiveReader(path: path) else {
            throw SystemError("libarchive could not allocate a reader", errno: ENOMEM, path: path)
        }
        let notAnArchive = ArchiveError(.notAnArchive, "not a zip or tar archive", path: path)
        // Failures are ignored: the reader registered these filters, and refused any failure, before.
        try? raw.supportFormat(.raw)
        try? raw.supportFilter(.gzip)
        try? raw.supportFilter(.zstd)
        try? raw.supportFilter(.xz)
        do {
            try raw.open(file: path, blockSize: 1 << 20)
        } catch {
            // Only an empty file gets here (the raw format accepts anything else): no archive.
            throw notAnArchive
        }
        guard let header = try? raw.nextHeader(), !header.warning else { throw notAnArchive }
        let limit = limits.maxExpandedBytes(fromCompressed: fileSize)
        var position: UInt64 = 0
        while true {
            guard let block = try raw.readDataBlock() else { return }
            guard let start = block.start else { continue }
            let bytes = UnsafeRawBufferPointer(start: start, count: block.count)
            if let index = bytes.firstIndex(where: { $0 != 0 }) {
                if position + UInt64(index) >= 512 { throw notAnArchive }
                return
            }
            position += UInt64(block.count)
            guard position <= limit else {
                throw ArchiveError(.limitExceeded, "the archive expands beyond the allowed ratio", path: path)
            }
        }
    }
}
