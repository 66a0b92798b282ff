import CArchive
import DocumentKitCore
import Foundation

/// A libarchive write handle (`archive_write_new`), freed with the value (`archive_write_free`).
///
/// It exists so that libarchive's writing calls are made in this folder alone, as
/// swift-system makes system calls: ``ArchiveWriter`` and ``ZstdCodec`` write through it
/// and import no C. Each method is one libarchive call, made when the caller makes it
/// (libarchive is sensitive to call order: options after the format or filter they are
/// for, and the caller sets the locale around whole sequences with
/// ``LibArchive/withUTF8Locale(_:)``), and a failure is thrown as ``LibArchive`` turns it
/// into an ``ArchiveError``, with ``path`` in it. It cannot be copied, so the handle is
/// freed exactly once. Freeing an open handle completes the archive, writing to its output,
/// unless ``fail()`` was called first.
struct LibArchiveWriter: ~Copyable {
    /// A format to write.
    enum Format {
        /// Zip (`archive_write_set_format_zip`).
        case zip
        /// Restricted pax: ustar, with pax headers only where needed
        /// (`archive_write_set_format_pax_restricted`).
        case paxRestricted
        /// The data of one entry, as is (`archive_write_set_format_raw`).
        case raw
    }

    /// A compression filter to add.
    enum Filter {
        /// gzip (`archive_write_add_filter_gzip`).
        case gzip
        /// zstd (`archive_write_add_filter_zstd`).
        case zstd
        /// xz (`archive_write_add_filter_xz`).
        case xz
    }

    /// How a zip entry is compressed.
    enum ZipCompression {
        /// Deflated (`archive_write_zip_set_compression_deflate`).
        case deflate
        /// Stored as is (`archive_write_zip_set_compression_store`).
        case store
    }

    /// Collects in memory what a handle opened with ``open(collectingInto:)`` writes.
    final class Output {
        /// The bytes written so far.
        var data = Data()

        /// An `archive_write_callback`: appends the bytes to the collector passed as client data.
        fileprivate static func write(
            _ archive: OpaquePointer?, _ client: UnsafeMutableRawPointer?, _ buffer: UnsafeRawPointer?, _ length: Int
        ) -> Int {
            guard let client, let buffer else { return 0 }
            let collector = Unmanaged<Output>.fromOpaque(client).takeUnretainedValue()
            collector.data.append(buffer.assumingMemoryBound(to: UInt8.self), count: length)
            return length
        }
    }

    private let archive: OpaquePointer
    /// The output's path, for error messages; `nil` for output in memory.
    let path: String?

    /// A new write handle, or `nil` if libarchive cannot allocate one.
    init?(path: String? = nil) {
        guard let archive = archive_write_new() else { return nil }
        self.archive = archive
        self.path = path
    }

    deinit {
        archive_write_free(archive)
    }

    // MARK: - Setting up, before opening; each throws `.unsupported`

    /// Sets the format.
    func setFormat(_ format: Format) throws {
        let code =
            switch format {
            case .zip: archive_write_set_format_zip(archive)
            case .paxRestricted: archive_write_set_format_pax_restricted(archive)
            case .raw: archive_write_set_format_raw(archive)
            }
        try check(code, kind: .unsupported)
    }

    /// Sets an option of the format (`archive_write_set_format_option`), after setting it.
    func setFormatOption(module: String, option: String, value: String) throws {
        try check(archive_write_set_format_option(archive, module, option, value), kind: .unsupported)
    }

    /// Adds a filter.
    func addFilter(_ filter: Filter) throws {
        let code =
            switch filter {
            case .gzip: archive_write_add_filter_gzip(archive)
            case .zstd: archive_write_add_filter_zstd(archive)
            case .xz: archive_write_add_filter_xz(archive)
            }
        try check(code, kind: .unsupported)
    }

    /// Sets an option of a filter (`archive_write_set_filter_option`), after adding it.
    func setFilterOption(module: String, option: String, value: String) throws {
        try check(archive_write_set_filter_option(archive, module, option, value), kind: .unsupported)
    }

    /// Sets options in libarchive's text form, `module:option=value,...`
    /// (`archive_write_set_options`), after the format and filters they are for.
    func setOptions(_ options: String) throws {
        try check(archive_write_set_options(archive, options), kind: .unsupported)
    }

    /// Pads the last block to a multiple of `bytes` (`archive_write_set_bytes_in_last_block`).
    func setBytesInLastBlock(_ bytes: Int32) throws {
        try check(archive_write_set_bytes_in_last_block(archive, bytes), kind: .unsupported)
    }

    // MARK: - Opening

    /// Starts the archive at the current position of `fd` (`archive_write_open_fd`), which
    /// stays open and the caller's. Throws `.io`.
    func open(fileDescriptor fd: Int32) throws {
        try check(archive_write_open_fd(archive, fd), kind: nil)
    }

    /// Starts the archive in memory, in `output` (`archive_write_open2`), which the caller
    /// keeps alive as long as the handle: the handle holds it unretained. Throws
    /// `.unsupported`.
    func open(collectingInto output: Output) throws {
        try check(
            archive_write_open2(
                archive, Unmanaged.passUnretained(output).toOpaque(), nil, { Output.write($0, $1, $2, $3) }, nil, nil),
            kind: .unsupported)
    }

    // MARK: - Writing entries

    /// Sets how the next zip entries are compressed; per entry, since
    /// `archive_write_set_format_option` is refused once the archive is open. Throws
    /// `.unsupported`.
    func setZipCompression(_ compression: ZipCompression, entry: String? = nil) throws {
        let code =
            switch compression {
            case .deflate: archive_write_zip_set_compression_deflate(archive)
            case .store: archive_write_zip_set_compression_store(archive)
            }
        try check(code, kind: .unsupported, entry: entry)
    }

    /// Writes the header of the next entry (`archive_write_header`). Throws `.io`, with
    /// `name`, the entry's name.
    func writeHeader(_ header: borrowing LibArchiveEntry, entry name: String? = nil) throws {
        try check(archive_write_header(archive, header.pointer), kind: nil, entry: name)
    }

    /// Writes `bytes` of the current entry's data (`archive_write_data`); returns how many
    /// libarchive accepted, negative on failure (see ``error(kind:entry:)``).
    func writeData(_ bytes: UnsafeRawBufferPointer) -> Int {
        archive_write_data(archive, bytes.baseAddress, bytes.count)
    }

    /// Completes the current entry (`archive_write_finish_entry`). Throws `.io`.
    func finishEntry(entry: String? = nil) throws {
        try check(archive_write_finish_entry(archive), kind: nil, entry: entry)
    }

    /// Completes the archive and flushes it (`archive_write_close`: for zip, this writes
    /// the central directory). Throws `.io`.
    func close() throws {
        try check(archive_write_close(archive), kind: nil)
    }

    /// Marks the archive failed (`archive_write_fail`), so that freeing the handle does not
    /// complete it.
    func fail() {
        archive_write_fail(archive)
    }

    // MARK: - Errors

    /// The handle's current error, as ``LibArchive/error(_:kind:path:entry:)`` makes it.
    func error(kind: ArchiveError.Kind?, entry: String? = nil) -> any Error {
        LibArchive.error(archive, kind: kind, path: path, entry: entry)
    }

    private func check(_ code: Int32, kind: ArchiveError.Kind?, entry: String? = nil) throws {
        try LibArchive.check(code, archive, kind: kind, path: path, entry: entry)
    }
}
