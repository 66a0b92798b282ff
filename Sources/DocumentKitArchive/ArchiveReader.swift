import DocumentKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads foreign archives, safely: zip, tar (pax, ustar, GNU), uncompressed or compressed
/// with gzip, zstd or xz. Nothing else.
///
/// Only these formats and filters are registered with libarchive, never `*_all`: most of
/// libarchive's CVEs are in readers of other formats (RAR, 7z, ISO, WARC), which therefore
/// never see our input. A 7z, RAR, ISO or cpio file is refused as `.notAnArchive`.
///
/// ```swift
/// let reader = try ArchiveReader(path: path)
/// while let entry = try reader.nextEntry() {
///     guard entry.kind == .regular else { continue }
///     try reader.readData { bytes in hasher.update(bufferPointer: bytes) }
/// }
/// ```
///
/// The reader never writes to disk. It enforces ``ArchiveLimits`` on the bytes it actually
/// decompresses, before passing them on. Entry names are validated: an unsafe name, or one
/// that collides with an earlier one, is reported by throwing `.unsafeEntry` or
/// `.duplicateEntry` from ``nextEntry()``, not silently skipped; the caller may stop, or
/// call ``nextEntry()`` again to skip that entry.
package final class ArchiveReader {
    /// The archive's path.
    package let path: String
    /// The limits this reader enforces.
    package let limits: ArchiveLimits
    /// The archive file's size, against which the expansion ratio is measured.
    package let fileSize: UInt64
    /// The libarchive handle; `nil` for a zip without entries, which libarchive's seekable
    /// zip reader does not recognize.
    let archive: LibArchiveReader?
    /// Entries returned so far.
    package var entryCount = 0
    /// Bytes of entry data produced so far, all entries together.
    package var totalBytes: UInt64 = 0
    /// How much of the archive file progress reports have counted as read.
    package var fileBytesReported: UInt64 = 0
    /// The entry whose data ``readData(_:)`` reads.
    package var current: CurrentEntry?
    /// ``ArchiveEntryName/collisionKey(_:)`` of every name seen, to refuse duplicates.
    package var collisionKeys: Set<String> = []

    package struct CurrentEntry {
        package var name: String
        package var declaredSize: UInt64?
        package var bytesRead: UInt64 = 0
        package var finished = false
    }

    /// Opens the archive at `path` (`archive_read_open_filename`, 1 MiB blocks) and
    /// identifies its format.
    ///
    /// - Throws: `.notAnArchive` ("not a zip or tar archive") for anything else, `.io` if the
    ///   file cannot be opened, `.truncated` or `.malformed` if it is damaged.
    package init(path: String, limits: ArchiveLimits = .default) throws {
        guard let status = SystemCall.status(path) else { throw POSIXFile.error("cannot open", path: path) }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw ArchiveError(.notAnArchive, "not a regular file", path: path)
        }
        self.path = path
        self.limits = limits
        self.fileSize = UInt64(clamping: status.st_size)
        try Self.checkZipDirectory(path, fileSize: fileSize, limits: limits)
        self.archive = try LibArchive.withUTF8Locale { () throws in
            try Self.open(path, fileSize: UInt64(clamping: status.st_size))
        }
    }

    /// The format libarchive identified, for example "ZIP 2.0 (deflation)" or "POSIX pax
    /// interchange format"; empty before the first entry is read.
    package var formatName: String {
        switch archive {
        case .none: return "ZIP (empty)"
        case .some(let archive): return archive.formatName ?? ""
        }
    }

    /// A read handle for `path` with only the accepted formats and filters registered, or
    /// `nil` for an empty zip. The handle is freed on the way out when not returned.
    private static func open(_ path: String, fileSize: UInt64) throws -> LibArchiveReader? {
        guard let archive = LibArchiveReader(path: path) else {
            throw SystemError("libarchive could not allocate a reader", errno: ENOMEM, path: path)
        }
        // A warning from a `support` call means "will run an external program": refuse it.
        try archive.supportFormat(.zipSeekable)
        try archive.supportFormat(.tar)
        try archive.supportFilter(.uncompressed)
        try archive.supportFilter(.gzip)
        try archive.supportFilter(.zstd)
        try archive.supportFilter(.xz)
        do {
            try archive.open(file: path, blockSize: 1 << 20)
        } catch let error as ArchiveError {
            if error.kind == .malformed, error.message.contains("Unrecognized archive format") {
                if isEmptyZip(path, fileSize: fileSize) { return nil }
                throw ArchiveError(.notAnArchive, "not a zip or tar archive", path: path)
            }
            throw error
        }
        return archive
    }

    /// Whether `path` is a zip with no entries: an end of central directory record alone.
    private static func isEmptyZip(_ path: String, fileSize: UInt64) -> Bool {
        guard fileSize <= UInt64(StoredZip.endRecordSize + 0xFFFF),
            let fd = try? POSIXFile.open(path, flags: O_RDONLY)
        else { return false }
        defer { POSIXFile.close(fd) }
        let end = try? StoredZipEndRecord.locate(in: fd, fileSize: fileSize, path: path)
        return end?.entryCount == 0 && end?.centralDirectoryOffset == 0
    }
}
