import CArchive
import DocumentKitCore

/// A libarchive read handle (`archive_read_new`), freed with the value (`archive_read_free`).
///
/// It exists so that libarchive's reading calls are made in this folder alone, as
/// swift-system makes system calls: ``ArchiveReader`` and ``ZstdCodec`` read through it and
/// import no C. Each method is one libarchive call, made when the caller makes it (libarchive
/// is sensitive to call order, and the caller sets the locale around whole sequences with
/// ``LibArchive/withUTF8Locale(_:)``), and a failure is thrown as ``LibArchive`` turns it
/// into an ``ArchiveError``, with ``path`` in it. It cannot be copied, so the handle is freed
/// exactly once, at the end of the value's scope or of the object holding it.
struct LibArchiveReader: ~Copyable {
    /// A format the handle may recognize. Only these are ever registered, never `*_all`:
    /// most of libarchive's CVEs are in readers of other formats.
    enum Format {
        /// Zip, read through its central directory (`archive_read_support_format_zip_seekable`).
        case zipSeekable
        /// Tar: pax, ustar, GNU (`archive_read_support_format_tar`).
        case tar
        /// Any bytes, as one entry (`archive_read_support_format_raw`).
        case raw
    }

    /// A compression filter the handle may recognize.
    enum Filter: Equatable {
        /// No compression (`archive_read_support_filter_none`, `ARCHIVE_FILTER_NONE`).
        case uncompressed
        /// gzip (`ARCHIVE_FILTER_GZIP`).
        case gzip
        /// zstd (`ARCHIVE_FILTER_ZSTD`).
        case zstd
        /// xz (`ARCHIVE_FILTER_XZ`).
        case xz
    }

    /// An entry's header, as ``nextHeader()`` found it.
    struct Header: ~Copyable {
        /// The entry, owned by the handle and valid until its next call.
        let entry: LibArchiveEntry
        /// Whether libarchive warned (`ARCHIVE_WARN`) while reading the header: a name it
        /// could not convert, or another damaged field.
        let warning: Bool
    }

    /// A block of the current entry's data, as libarchive decompressed it.
    struct Block {
        /// The block's first byte: libarchive's, valid until the handle's next call.
        let start: UnsafeRawPointer?
        /// The block's size in bytes.
        let count: Int
        /// Where the block goes in the entry: past the bytes so far, it leaves a hole (a
        /// sparse entry).
        let offset: Int64
    }

    private let archive: OpaquePointer
    /// The archive's path, for error messages; `nil` for bytes in memory.
    let path: String?

    /// A new read handle, or `nil` if libarchive cannot allocate one.
    init?(path: String? = nil) {
        guard let archive = archive_read_new() else { return nil }
        self.archive = archive
        self.path = path
    }

    deinit {
        archive_read_free(archive)
    }

    /// Registers `format`. Throws `.unsupported` on a warning too: from a `support` call, a
    /// warning means "will run an external program".
    func supportFormat(_ format: Format) throws {
        let code =
            switch format {
            case .zipSeekable: archive_read_support_format_zip_seekable(archive)
            case .tar: archive_read_support_format_tar(archive)
            case .raw: archive_read_support_format_raw(archive)
            }
        try check(code, kind: .unsupported)
    }

    /// Registers `filter`; throws `.unsupported` as ``supportFormat(_:)`` does.
    func supportFilter(_ filter: Filter) throws {
        let code =
            switch filter {
            case .uncompressed: archive_read_support_filter_none(archive)
            case .gzip: archive_read_support_filter_gzip(archive)
            case .zstd: archive_read_support_filter_zstd(archive)
            case .xz: archive_read_support_filter_xz(archive)
            }
        try check(code, kind: .unsupported)
    }

    /// Opens the file at `path` (`archive_read_open_filename`), read in blocks of
    /// `blockSize` bytes, and identifies its format and filters.
    ///
    /// - Throws: `.malformed` ("Unrecognized archive format" when no registered format
    ///   matches), or the kind ``LibArchive`` tells from the message.
    func open(file path: String, blockSize: Int) throws {
        try check(archive_read_open_filename(archive, path, blockSize), kind: .malformed)
    }

    /// Opens `bytes` (`archive_read_open_memory`), which libarchive reads in place: they must
    /// stay valid as long as the handle reads. Throws as ``open(file:blockSize:)`` does.
    func open(memory bytes: UnsafeRawBufferPointer) throws {
        try check(archive_read_open_memory(archive, bytes.baseAddress, bytes.count), kind: .malformed)
    }

    /// The filter at `index` (`archive_filter_code`: 0 is the one next to the format, -1 the
    /// one next to the file), or `nil` for one not in ``Filter``.
    func filter(at index: Int32) -> Filter? {
        switch archive_filter_code(archive, index) {
        case ARCHIVE_FILTER_NONE: .uncompressed
        case ARCHIVE_FILTER_GZIP: .gzip
        case ARCHIVE_FILTER_ZSTD: .zstd
        case ARCHIVE_FILTER_XZ: .xz
        default: nil
        }
    }

    /// The format libarchive identified (`archive_format_name`), for example "ZIP 2.0
    /// (deflation)"; `nil` before the first header is read.
    var formatName: String? {
        archive_format_name(archive).map { String(cString: $0) }
    }

    /// How many bytes of the archive file libarchive has read, before decompressing them
    /// (`archive_filter_bytes` of the filter next to the file, -1).
    var archiveBytesRead: Int64 {
        archive_filter_bytes(archive, -1)
    }

    /// The next entry's header (`archive_read_next_header`), skipping the data of the
    /// previous entry that was not read; `nil` after the last entry (`ARCHIVE_EOF`).
    ///
    /// - Throws: `.malformed`, or the kind ``LibArchive`` tells from the message.
    func nextHeader() throws -> Header? {
        var entry: OpaquePointer?
        let code = archive_read_next_header(archive, &entry)
        if code == ARCHIVE_EOF { return nil }
        guard code == ARCHIVE_OK || code == ARCHIVE_WARN, let entry else { throw error(kind: .malformed) }
        return Header(entry: LibArchiveEntry(ownedByArchive: entry), warning: code == ARCHIVE_WARN)
    }

    /// The current entry's next block of data (`archive_read_data_block`), or `nil` after
    /// its last block (`ARCHIVE_EOF`).
    ///
    /// - Throws: `.malformed` (with `entry`, the entry's name), or the kind ``LibArchive``
    ///   tells from the message: `.checksumMismatch` for a CRC that libarchive reports, as
    ///   a warning, after the last block.
    func readDataBlock(entry: String? = nil) throws -> Block? {
        var start: UnsafeRawPointer?
        var count = 0
        var offset: Int64 = 0
        let code = archive_read_data_block(archive, &start, &count, &offset)
        if code == ARCHIVE_EOF { return nil }
        guard code == ARCHIVE_OK else { throw error(kind: .malformed, entry: entry) }
        return Block(start: start, count: count, offset: offset)
    }

    /// Fills the start of `buffer` with the current entry's next bytes (`archive_read_data`);
    /// returns how many, 0 after the last.
    ///
    /// - Throws: `.malformed`, or the kind ``LibArchive`` tells from the message.
    func readData(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = archive_read_data(archive, buffer.baseAddress, buffer.count)
        if count < 0 { throw error(kind: .malformed) }
        return count
    }

    /// The handle's current error, as ``LibArchive/error(_:kind:path:entry:)`` makes it.
    func error(kind: ArchiveError.Kind?, entry: String? = nil) -> any Error {
        LibArchive.error(archive, kind: kind, path: path, entry: entry)
    }

    private func check(_ code: Int32, kind: ArchiveError.Kind?, entry: String? = nil) throws {
        try LibArchive.check(code, archive, kind: kind, path: path, entry: entry)
    }
}
