import DocumentKitCore
import Foundation

/// Writes zip and tar archives for export, through libarchive, reproducibly.
///
/// Output is byte-identical for the same input on every machine: owners are uid/gid 0
/// without names, modes are what the caller passes, gzip headers carry no timestamp,
/// and names are UTF-8. Times are the caller's; for zip, pass `nil` to get the same bytes
/// in every time zone (zip stores local time, so a set time depends on the zone; an unset
/// one becomes 1980-01-01 everywhere and no time goes into the extra field).
///
/// ```swift
/// let writer = try ArchiveWriter(fileDescriptor: fd, path: path, format: .tarZstd)
/// try writer.addDirectory(name: "objects", modificationTime: 0)
/// try writer.addFile(name: "objects/a.json", data: json, modificationTime: 0)
/// try writer.finish()
/// ```
///
/// After any error the writer is unusable and the output incomplete: discard it.
package final class ArchiveWriter {
    /// The output's path, for error messages.
    package let path: String
    /// The format being written.
    package let format: ArchiveWriteFormat
    private let archive: LibArchiveWriter
    private let checks: ArchiveWriterChecks

    /// Starts an archive at the current position of `fileDescriptor`
    /// (`archive_write_open_fd`), which stays open and owned by the caller.
    ///
    /// - Parameter path: the file's path, used only in error messages.
    package init(fileDescriptor: Int32, path: String, format: ArchiveWriteFormat) throws {
        self.path = path
        self.format = format
        self.checks = ArchiveWriterChecks(path: path)
        self.archive = try LibArchive.withUTF8Locale { () throws in
            try Self.open(fileDescriptor, path: path, format: format)
        }
    }

    deinit {
        // An unfinished archive must not be completed by archive_write_free (which would
        // write to a descriptor the caller may have closed and reused): mark it failed.
        // The handle is freed with `archive`, after this.
        if checks.state != .finished { archive.fail() }
    }

    /// Adds a regular file of exactly `size` bytes, which `body` writes through
    /// ``ArchiveEntrySink/write(_:)-(UnsafeRawBufferPointer)``.
    ///
    /// - Parameters:
    ///   - mode: permission bits, stored as given.
    ///   - modificationTime: seconds since 1970 (UTC); `nil` means 1980-01-01 in zip and 0
    ///     (1970-01-01) in tar.
    ///   - compression: for zip, `.deflate` or `.store` for this entry.
    /// - Throws: `.unsafeEntry` or `.duplicateEntry` for a bad name, `.limitExceeded` or
    ///   `.truncated` if `body` writes more or fewer than `size` bytes, `.io`, or what `body` throws.
    package func addFile(
        name: String, size: UInt64, mode: UInt32 = 0o644, modificationTime: Int64? = nil,
        compression: EntryCompression = .deflate, body: (inout ArchiveEntrySink) throws -> Void
    ) throws {
        try begin(name)
        try checks.failing {
            try LibArchive.withUTF8Locale { () throws in
                try writeHeader(
                    name: name, type: .regular, size: size, mode: mode,
                    modificationTime: modificationTime, compression: compression)
            }
            // The caller's code runs in its own locale; each sink write sets ours.
            var sink = ArchiveEntrySink(declaredSize: size, path: path, entry: name, computesCRC: false) {
                [self] bytes throws in
                let written = LibArchive.withUTF8Locale { archive.writeData(bytes) }
                guard written == bytes.count else {
                    if written < 0 { throw archive.error(kind: nil, entry: name) }
                    throw SystemError("libarchive accepted \(written) of \(bytes.count) bytes", errno: EIO, path: path)
                }
            }
            try body(&sink)
            try sink.finish()
            try LibArchive.withUTF8Locale { () throws in try archive.finishEntry(entry: name) }
        }
    }

    /// Adds a regular file holding `data`.
    package func addFile(
        name: String, data: Data, mode: UInt32 = 0o644, modificationTime: Int64? = nil,
        compression: EntryCompression = .deflate
    ) throws {
        try addFile(
            name: name, size: UInt64(data.count), mode: mode, modificationTime: modificationTime,
            compression: compression
        ) { sink in try sink.write(data) }
    }

    /// Adds a directory entry; `name` is given without a trailing `/`.
    package func addDirectory(name: String, mode: UInt32 = 0o755, modificationTime: Int64? = nil) throws {
        try begin(name)
        do {
            try LibArchive.withUTF8Locale { () throws in
                try writeHeader(
                    name: name + "/", type: .directory, size: 0, mode: mode,
                    modificationTime: modificationTime, compression: .store)
                try archive.finishEntry(entry: name)
            }
        } catch {
            checks.markFailed()
            throw error
        }
    }

    /// Completes the archive (`archive_write_close`: for zip, this writes the central
    /// directory) and flushes it to the descriptor. Call once.
    package func finish() throws {
        try checks.checkOpen()
        do {
            try LibArchive.withUTF8Locale { () throws in try archive.close() }
        } catch {
            checks.markFailed()
            throw error
        }
        checks.markFinished()
    }

    // MARK: - Helpers

    /// A write handle for `format`, started on `fd`; freed on the way out when not returned.
    private static func open(_ fd: Int32, path: String, format: ArchiveWriteFormat) throws
        -> LibArchiveWriter
    {
        guard let archive = LibArchiveWriter(path: path) else {
            throw SystemError("libarchive could not allocate a writer", errno: ENOMEM, path: path)
        }
        switch format {
        case .zip:
            try archive.setFormat(.zip)
            try archive.setFormatOption(module: "zip", option: "hdrcharset", value: "UTF-8")
        case .tar, .tarGzip, .tarZstd, .tarXz:
            try archive.setFormat(.paxRestricted)
        }
        switch format {
        case .zip, .tar: break
        case .tarGzip:
            try archive.addFilter(.gzip)
            // The gzip header would otherwise hold the time of writing.
            try archive.setOptions("gzip:!timestamp")
        case .tarZstd: try archive.addFilter(.zstd)
        case .tarXz: try archive.addFilter(.xz)
        }
        // Without this, output is padded to a 10,240-byte block.
        try archive.setBytesInLastBlock(1)
        try archive.open(fileDescriptor: fd)
        return archive
    }

    private func writeHeader(
        name: String, type: LibArchiveEntry.FileType, size: UInt64, mode: UInt32, modificationTime: Int64?,
        compression: EntryCompression
    ) throws {
        if format == .zip {
            // Per entry: `archive_write_set_format_option` is refused once the archive is open.
            let deflate = type == .regular && compression == .deflate
            try archive.setZipCompression(deflate ? .deflate : .store, entry: name)
        }
        guard let entry = LibArchiveEntry() else {
            throw SystemError("libarchive could not allocate an entry", errno: ENOMEM, path: path)
        }
        // The entry is freed on the way out.
        entry.setPathnameUTF8(name)
        entry.setFileType(type)
        entry.setPermissions(mode & 0o7777)
        entry.setSize(Int64(clamping: size))
        entry.setUID(0)
        entry.setGID(0)
        if let modificationTime {
            entry.setModificationTime(modificationTime)
        } else if format != .zip {
            entry.setModificationTime(0)
        }
        try archive.writeHeader(entry, entry: name)
    }

    private func begin(_ name: String) throws {
        guard LibArchive.hasUTF8Locale || name.utf8.allSatisfy({ $0 < 0x80 }) else {
            // Without a UTF-8 locale, libarchive 3.6.2's pax writer crashes on such names.
            throw ArchiveError(.unsupported, "non-ASCII names need a UTF-8 locale (C.UTF-8)", path: path, entry: name)
        }
        try checks.admit(name)
    }
}
