import CArchive
import DocumentKitCore
import Foundation

/// Compresses and decompresses single zstd frames, through libarchive's raw format with
/// its zstd filter (libarchive links libzstd; no external program runs).
///
/// Bundles store compressible objects as zstd frames, compressed once when first saved
/// and copied unchanged afterwards. Frames are standard: `zstd -d` decodes them, and
/// ``decompress(_:expectedSize:limits:)`` decodes the `zstd` tool's output.
///
/// The frames written here carry no content checksum (libarchive 3.6.2 has no option to
/// ask libzstd for one), so damage inside compressed literals can decode without error:
/// check the decoded bytes against a digest, as bundles do with SHA-256. Frames that do
/// carry a checksum (the `zstd` tool's) are verified while decoding.
///
/// ```swift
/// let frame = try ZstdCodec.compress(json)
/// let json = try ZstdCodec.decompress(frame, expectedSize: json.count)
/// ```
package enum ZstdCodec {
    /// `data` as one zstd frame, at compression `level` (1...19; 3 is zstd's default).
    package static func compress(_ data: Data, level: Int = 3) throws(ArchiveError) -> Data {
        try LibArchive.withUTF8Locale { () throws(ArchiveError) -> Data in
            guard let archive = archive_write_new() else {
                throw ArchiveError(.io, "libarchive could not allocate a writer")
            }
            defer { archive_write_free(archive) }
            let output = OutputCollector()
            output.data.reserveCapacity(data.count / 3 + 64)
            func check(_ code: Int32) throws(ArchiveError) {
                try LibArchive.check(code, archive, kind: .unsupported)
            }
            try check(archive_write_set_format_raw(archive))
            try check(archive_write_add_filter_zstd(archive))
            try check(archive_write_set_filter_option(archive, "zstd", "compression-level", String(level)))
            try check(archive_write_set_bytes_in_last_block(archive, 1))
            try check(
                archive_write_open2(
                    archive, Unmanaged.passUnretained(output).toOpaque(), nil,
                    { OutputCollector.write($0, $1, $2, $3) }, nil, nil))
            guard let entry = archive_entry_new() else {
                throw ArchiveError(.io, "libarchive could not allocate an entry")
            }
            defer { archive_entry_free(entry) }
            archive_entry_set_filetype(entry, CARCHIVE_AE_IFREG)
            archive_entry_set_size(entry, Int64(data.count))
            try LibArchive.check(archive_write_header(archive, entry), archive, kind: .io)
            let written = data.withUnsafeBytes { bytes in
                bytes.isEmpty ? 0 : archive_write_data(archive, bytes.baseAddress, bytes.count)
            }
            guard written == data.count else { throw LibArchive.error(archive, kind: .io) }
            try LibArchive.check(archive_write_close(archive), archive, kind: .io)
            return withExtendedLifetime(output) { output.data }
        }
    }

    /// Decodes `data`, a zstd frame, into exactly `expectedSize` bytes.
    ///
    /// The output buffer is `expectedSize` bytes and never grows, so a hostile frame cannot
    /// allocate more than the caller expects.
    ///
    /// - Throws: `.limitExceeded` if the frame decodes to more than `expectedSize` bytes, or
    ///   if `expectedSize` itself breaks `limits` (``ArchiveLimits/maxEntryBytes``, or the
    ///   expansion ratio against `data.count`); `.malformed` if `data` is not a zstd frame,
    ///   is damaged, or decodes to fewer bytes.
    package static func decompress(
        _ data: Data, expectedSize: Int, limits: ArchiveLimits = .default
    ) throws(ArchiveError) -> Data {
        guard expectedSize >= 0 else {
            throw ArchiveError(.malformed, "a negative size (\(expectedSize)) was expected")
        }
        guard UInt64(expectedSize) <= limits.maxEntryBytes,
            UInt64(expectedSize) <= limits.maxExpandedBytes(fromCompressed: UInt64(data.count))
        else {
            throw ArchiveError(
                .limitExceeded, "\(data.count) compressed bytes may not expand to \(expectedSize) bytes")
        }
        return try decode(data, capacity: expectedSize, exact: true)
    }

    /// Decompresses a zstd frame of unknown size, at most `maxSize` bytes: for data whose
    /// size is bounded but not recorded (delta programs).
    ///
    /// - Throws: `.limitExceeded` if the frame decodes to more than `maxSize` bytes;
    ///   `.malformed` if `data` is not a zstd frame or is damaged.
    package static func decompress(_ data: Data, maxSize: Int) throws(ArchiveError) -> Data {
        guard maxSize >= 0 else { throw ArchiveError(.malformed, "a negative size (\(maxSize)) was expected") }
        return try decode(data, capacity: maxSize, exact: false)
    }

    private static func decode(_ data: Data, capacity: Int, exact: Bool) throws(ArchiveError) -> Data {
        // libarchive reads the input in place: keep it pinned for the whole decode.
        try data.withUnsafeBytes { input in
            Result { () throws(ArchiveError) in
                try LibArchive.withUTF8Locale { () throws(ArchiveError) in
                    try decode(input, expectedSize: capacity, exact: exact)
                }
            }
        }.get()
    }

    /// Decodes `data`, a zstd frame of exactly `expectedSize` bytes, passing them to `body`
    /// in blocks of at most `blockSize` bytes, so that the decoded bytes are never held
    /// whole (a push sending a large compressed document). Throws as
    /// ``decompress(_:expectedSize:limits:)`` does, after the blocks already passed on, or
    /// what `body` throws.
    package static func decompress(
        _ data: Data, expectedSize: Int, limits: ArchiveLimits = .default, blockSize: Int = 1 << 18,
        into body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard expectedSize >= 0, UInt64(expectedSize) <= limits.maxEntryBytes,
            UInt64(expectedSize) <= limits.maxExpandedBytes(fromCompressed: UInt64(data.count))
        else {
            throw ArchiveError(.limitExceeded, "\(data.count) compressed bytes may not expand to \(expectedSize) bytes")
        }
        try data.withUnsafeBytes { input in
            try LibArchive.withUTF8Locale { () throws -> Void in
                guard let archive = try reader(of: input, expectedSize: expectedSize, exact: true) else { return }
                defer { archive_read_free(archive) }
                let block = UnsafeMutableRawBufferPointer.allocate(
                    byteCount: max(1, min(blockSize, expectedSize + 1)), alignment: 16)
                defer { block.deallocate() }
                var filled = 0
                while true {
                    let count = archive_read_data(archive, block.baseAddress, block.count)
                    if count < 0 { throw LibArchive.error(archive, kind: .malformed) }
                    if count == 0 { break }
                    filled += count
                    guard filled <= expectedSize else {
                        throw ArchiveError(
                            .limitExceeded, "the frame decodes to more than the expected \(expectedSize) bytes")
                    }
                    try body(UnsafeRawBufferPointer(rebasing: block[0..<count]))
                }
                guard filled == expectedSize else {
                    throw ArchiveError(
                        .malformed, "the frame decodes to \(filled) bytes; \(expectedSize) were expected")
                }
            }
        }
    }

    /// A reader of `input`, a zstd frame, past its one header; `nil` for the empty frame
    /// (when `expectedSize` allows it), which libarchive's raw format refuses to open.
    private static func reader(of input: UnsafeRawBufferPointer, expectedSize: Int, exact: Bool) throws(ArchiveError)
        -> OpaquePointer?
    {
        let notZstd = ArchiveError(.malformed, "the data is not a zstd frame")
        guard let base = input.baseAddress, !input.isEmpty else { throw notZstd }
        guard let archive = archive_read_new() else {
            throw ArchiveError(.io, "libarchive could not allocate a reader")
        }
        do throws(ArchiveError) {
            try LibArchive.check(archive_read_support_format_raw(archive), archive, kind: .unsupported)
            try LibArchive.check(archive_read_support_filter_zstd(archive), archive, kind: .unsupported)
            let opened = archive_read_open_memory(archive, base, input.count)
            // The raw format accepts any bytes, so check that the zstd filter recognized them.
            guard archive_filter_code(archive, 0) == ARCHIVE_FILTER_ZSTD else { throw notZstd }
            if opened != ARCHIVE_OK {
                if expectedSize == 0 || !exact,
                    String(cString: archive_error_string(archive)).contains("Unrecognized archive format")
                {
                    archive_read_free(archive)
                    return nil
                }
                throw LibArchive.error(archive, kind: .malformed)
            }
            var entry: OpaquePointer?
            try LibArchive.check(archive_read_next_header(archive, &entry), archive, kind: .malformed)
            return archive
        } catch {
            archive_read_free(archive)
            throw error
        }
    }

    private static func decode(_ input: UnsafeRawBufferPointer, expectedSize: Int, exact: Bool) throws(ArchiveError)
        -> Data
    {
        guard let archive = try reader(of: input, expectedSize: expectedSize, exact: exact) else { return Data() }
        defer { archive_read_free(archive) }
        if !exact { return try readAll(archive, limit: expectedSize) }
        var output = Data(count: expectedSize)
        let filled = try output.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            Result { () throws(ArchiveError) -> Int in
                var filled = 0
                while filled < expectedSize {
                    let count = archive_read_data(
                        archive, buffer.baseAddress.unsafelyUnwrapped + filled, expectedSize - filled)
                    if count < 0 { throw LibArchive.error(archive, kind: .malformed) }
                    if count == 0 { break }
                    filled += count
                }
                return filled
            }
        }.get()
        guard filled == expectedSize else {
            throw ArchiveError(.malformed, "the frame decodes to \(filled) bytes; \(expectedSize) were expected")
        }
        var extra: UInt8 = 0
        let more = archive_read_data(archive, &extra, 1)
        if more < 0 { throw LibArchive.error(archive, kind: .malformed) }
        guard more == 0 else {
            throw ArchiveError(.limitExceeded, "the frame decodes to more than the expected \(expectedSize) bytes")
        }
        return output
    }
}

extension ZstdCodec {
    /// Reads the rest of a decoding archive's data, refusing more than `limit` bytes; the
    /// buffer grows with what arrives, so a small frame costs a small buffer.
    fileprivate static func readAll(_ archive: OpaquePointer, limit: Int) throws(ArchiveError) -> Data {
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
            if count < 0 { throw LibArchive.error(archive, kind: .malformed) }
            if count == 0 { return output }
            guard output.count + count <= limit else {
                throw ArchiveError(.limitExceeded, "the frame decodes to more than the expected \(limit) bytes")
            }
            output.append(contentsOf: chunk[0..<count])
        }
    }
}

/// Collects what libarchive writes, for ``ZstdCodec/compress(_:level:)``.
private final class OutputCollector {
    var data = Data()

    /// An `archive_write_callback`: appends the bytes to the collector passed as client data.
    static func write(
        _ archive: OpaquePointer?, _ client: UnsafeMutableRawPointer?, _ buffer: UnsafeRawPointer?, _ length: Int
    ) -> Int {
        guard let client, let buffer else { return 0 }
        let collector = Unmanaged<OutputCollector>.fromOpaque(client).takeUnretainedValue()
        collector.data.append(buffer.assumingMemoryBound(to: UInt8.self), count: length)
        return length
    }
}
