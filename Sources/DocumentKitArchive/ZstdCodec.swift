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
    package static func compress(_ data: Data, level: Int = 3) throws -> Data {
        try LibArchive.withUTF8Locale { () throws -> Data in
            // Made before the handle, so it outlives it: a handle freed while open (after an
            // error) completes the frame into it.
            let output = LibArchiveWriter.Output()
            output.data.reserveCapacity(data.count / 3 + 64)
            // The handle, and the entry below, are freed on the way out.
            guard let archive = LibArchiveWriter() else {
                throw SystemError("libarchive could not allocate a writer", errno: ENOMEM)
            }
            try archive.setFormat(.raw)
            try archive.addFilter(.zstd)
            try archive.setFilterOption(module: "zstd", option: "compression-level", value: String(level))
            try archive.setBytesInLastBlock(1)
            try archive.open(collectingInto: output)
            guard let entry = LibArchiveEntry() else {
                throw SystemError("libarchive could not allocate an entry", errno: ENOMEM)
            }
            entry.setFileType(.regular)
            entry.setSize(Int64(data.count))
            try archive.writeHeader(entry)
            let written = data.withUnsafeBytes { bytes in
                bytes.isEmpty ? 0 : archive.writeData(bytes)
            }
            guard written == data.count else { throw archive.error(kind: nil) }
            try archive.close()
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
    ) throws -> Data {
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
    package static func decompress(_ data: Data, maxSize: Int) throws -> Data {
        guard maxSize >= 0 else { throw ArchiveError(.malformed, "a negative size (\(maxSize)) was expected") }
        return try decode(data, capacity: maxSize, exact: false)
    }

    private static func decode(_ data: Data, capacity: Int, exact: Bool) throws -> Data {
        // libarchive reads the input in place: keep it pinned for the whole decode.
        try data.withUnsafeBytes { input in
            Result { () throws in
                try LibArchive.withUTF8Locale { () throws in
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
                // The handle is freed on the way out.
                guard let archive = try reader(of: input, expectedSize: expectedSize, exact: true) else { return }
                let block = UnsafeMutableRawBufferPointer.allocate(
                    byteCount: max(1, min(blockSize, expectedSize + 1)), alignment: 16)
                defer { block.deallocate() }
                var filled = 0
                while true {
                    let count = try archive.readData(into: block)
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
    private static func reader(of input: UnsafeRawBufferPointer, expectedSize: Int, exact: Bool) throws
        -> LibArchiveReader?
    {
        let notZstd = ArchiveError(.malformed, "the data is not a zstd frame")
        guard !input.isEmpty else { throw notZstd }
        // The handle is freed on the way out when not returned.
        guard let archive = LibArchiveReader() else {
            throw SystemError("libarchive could not allocate a reader", errno: ENOMEM)
        }
        try archive.supportFormat(.raw)
        try archive.supportFilter(.zstd)
        let opened = Result { () throws in try archive.open(memory: input) }
        // The raw format accepts any bytes, so check that the zstd filter recognized them.
        guard archive.filter(at: 0) == .zstd else { throw notZstd }
        if case .failure(let error) = opened {
            if expectedSize == 0 || !exact,
                (error as? ArchiveError)?.message.contains("Unrecognized archive format") == true
            {
                return nil
            }
            throw error
        }
        guard let header = try archive.nextHeader(), !header.warning else { throw archive.error(kind: .malformed) }
        return archive
    }

    private static func decode(_ input: UnsafeRawBufferPointer, expectedSize: Int, exact: Bool) throws
        -> Data
    {
        // The handle is freed on the way out.
        guard let archive = try reader(of: input, expectedSize: expectedSize, exact: exact) else { return Data() }
        if !exact { return try readAll(archive, limit: expectedSize) }
        var output = Data(count: expectedSize)
        let filled = try output.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            Result { () throws -> Int in
                var filled = 0
                while filled < expectedSize {
                    let count = try archive.readData(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
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
        let more = try withUnsafeMutableBytes(of: &extra) { byte throws in
            try archive.readData(into: byte)
        }
        guard more == 0 else {
            throw ArchiveError(.limitExceeded, "the frame decodes to more than the expected \(expectedSize) bytes")
        }
        return output
    }
}

extension ZstdCodec {
    /// Reads the rest of a decoding archive's data, refusing more than `limit` bytes; the
    /// buffer grows with what arrives, so a small frame costs a small buffer.
    fileprivate static func readAll(_ archive: borrowing LibArchiveReader, limit: Int) throws -> Data {
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { bytes in
                Result { () throws in try archive.readData(into: bytes) }
            }.get()
            if count == 0 { return output }
            guard output.count + count <= limit else {
                throw ArchiveError(.limitExceeded, "the frame decodes to more than the expected \(limit) bytes")
            }
            output.append(contentsOf: chunk[0..<count])
        }
    }
}
