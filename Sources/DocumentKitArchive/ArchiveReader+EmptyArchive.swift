import CArchive
import DocumentKitCore

extension ArchiveReader {
    /// Refuses a file that libarchive read as an empty tar but that holds data.
    ///
    /// libarchive's tar reader accepts a first block of 512 zero bytes as "end of archive",
    /// so any file starting with zeros (an ISO 9660 image, a disk image) opens as a tar
    /// with no entries. A real empty tar is zeros throughout; an empty zip starts with its
    /// end record's signature. So: find the first non-zero byte of the (decompressed)
    /// stream; past the first block, this is not an archive.
    package func checkEmptyArchive() throws(ArchiveError) {
        guard let raw = archive_read_new() else {
            throw ArchiveError(.io, "libarchive could not allocate a reader", path: path)
        }
        defer { archive_read_free(raw) }
        let notAnArchive = ArchiveError(.notAnArchive, "not a zip or tar archive", path: path)
        _ = archive_read_support_format_raw(raw)
        _ = archive_read_support_filter_gzip(raw)
        _ = archive_read_support_filter_zstd(raw)
        _ = archive_read_support_filter_xz(raw)
        guard archive_read_open_filename(raw, path, 1 << 20) == ARCHIVE_OK else {
            // Only an empty file gets here (the raw format accepts anything else): no archive.
            throw notAnArchive
        }
        var entry: OpaquePointer?
        guard archive_read_next_header(raw, &entry) == ARCHIVE_OK else { throw notAnArchive }
        let limit = limits.maxExpandedBytes(fromCompressed: fileSize)
        var position: UInt64 = 0
        while true {
            var block: UnsafeRawPointer?
            var size = 0
            var offset: Int64 = 0
            let code = archive_read_data_block(raw, &block, &size, &offset)
            if code == ARCHIVE_EOF { return }
            guard code == ARCHIVE_OK else { throw LibArchive.error(raw, kind: .malformed, path: path) }
            guard let block else { continue }
            let bytes = UnsafeRawBufferPointer(start: block, count: size)
            if let index = bytes.firstIndex(where: { $0 != 0 }) {
                if position + UInt64(index) >= 512 { throw notAnArchive }
                return
            }
            position += UInt64(size)
            guard position <= limit else {
                throw ArchiveError(.limitExceeded, "the archive expands beyond the allowed ratio", path: path)
            }
        }
    }
}
