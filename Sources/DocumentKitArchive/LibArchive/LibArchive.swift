import CArchive
import DocumentKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What every libarchive call sequence needs: a UTF-8 character locale on the calling
/// thread, and one way to turn `ARCHIVE_*` status codes into ``ArchiveError``s.
///
/// This folder (`LibArchive/`) is the target's wrapper of libarchive, the way swift-system
/// wraps system calls: ``LibArchiveReader``, ``LibArchiveWriter`` and ``LibArchiveEntry``
/// own libarchive's handles and make its calls, a method for each, and ``Zlib`` holds the
/// CRC-32 of the zlib libarchive links. No other file of the target imports CArchive or
/// calls an `archive_*` function (`SourceRulesTests` checks). The wrappers report failures
/// through ``check(_:_:kind:path:entry:)`` and ``error(_:kind:path:entry:)``; their callers
/// (``ArchiveReader``, ``ArchiveWriter``, ``ZstdCodec``) choose the calls and their order,
/// and set the locale around whole sequences with ``withUTF8Locale(_:)``.
package enum LibArchive {
    /// Runs `body` with the calling thread's `LC_CTYPE` set to UTF-8, then restores it.
    ///
    /// libarchive converts names through the current locale: in the C locale its pax writer
    /// crashes on non-ASCII names (libarchive issue 2233, fixed after 3.6.2) and its zip
    /// writer drops the UTF-8 flag. `uselocale(3)` changes only this thread, so other
    /// threads and the process locale are untouched. Wrap whole call sequences: code here
    /// is synchronous, so a sequence never changes threads midway.
    package static func withUTF8Locale<Value: ~Copyable, Failure: Error>(
        _ body: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        guard let locale = utf8Locale else { return try body() }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return try body()
    }

    /// Whether a UTF-8 locale exists on this system (glibc ships C.UTF-8 since 2.35).
    package static var hasUTF8Locale: Bool { utf8Locale != nil }

    private static let utf8 = UTF8Locale()
    private static var utf8Locale: locale_t? { utf8.locale }

    /// A UTF-8 locale, created once and never freed: `uselocale` needs it for the life of
    /// the process. Immutable after creation, so sharing it between threads is safe.
    private struct UTF8Locale: @unchecked Sendable {
        let locale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "en_US.UTF-8", nil)
    }

    /// Throws unless `code` is `ARCHIVE_OK`. Warnings are failures too: every warning
    /// libarchive gives on the paths used here means damage or a name it could not convert.
    ///
    /// `kind` is what a failure means unless it is clearly something else (``error(_:kind:path:entry:)``);
    /// `nil` for a write, whose failures are the system's.
    static func check(
        _ code: Int32, _ archive: OpaquePointer, kind: ArchiveError.Kind? = .malformed,
        path: String? = nil, entry: String? = nil
    ) throws {
        guard code != ARCHIVE_OK else { return }
        throw error(archive, kind: kind, path: path, entry: entry)
    }

    /// The archive's current error, its message copied out of libarchive (so the handle
    /// may be freed afterwards): an ``ArchiveError`` of `kind`, unless it is clearly
    /// something else: a file that ends early (`.truncated`), a bad checksum
    /// (`.checksumMismatch`), or a failed system call, a ``SystemError`` with its errno
    /// (always, when `kind` is `nil`: a write's failure; `EIO` when libarchive gives none).
    static func error(
        _ archive: OpaquePointer, kind: ArchiveError.Kind?, path: String? = nil, entry: String? = nil
    ) -> any Error {
        let message = archive_error_string(archive).map { String(cString: $0) } ?? "libarchive reported an error"
        let code = archive_errno(archive)
        guard let kind, let classified = classify(message, errno: code, default: kind) else {
            // libarchive says what it was doing ("Write error"); the system's reason follows.
            return SystemError(message, errno: code > 0 ? code : EIO, path: path)
        }
        return ArchiveError(classified, message, path: path, entry: entry)
    }

    /// The kind of archive error `message` and `code` say, or `nil` for a failed system call.
    private static func classify(_ message: String, errno code: Int32, default kind: ArchiveError.Kind)
        -> ArchiveError.Kind?
    {
        let lowercased = message.lowercased()
        // Headers that contradict each other ("Inconsistent CRC32 values") are malformed
        // even when the field is a checksum.
        if lowercased.contains("inconsistent") { return .malformed }
        // "No progress is possible" is liblzma's way of saying its input ended early.
        if ["truncated", "premature end", "unexpected end", "no progress is possible"].contains(
            where: lowercased.contains)
        {
            return .truncated
        }
        if lowercased.contains("crc") || lowercased.contains("checksum") { return .checksumMismatch }
        // libarchive reports format problems as EILSEQ (ARCHIVE_ERRNO_FILE_FORMAT), misuse as
        // EINVAL and its own trouble as -1; any other positive errno came from the system.
        if code > 0, code != EILSEQ, code != EINVAL { return nil }
        return kind
    }
}
