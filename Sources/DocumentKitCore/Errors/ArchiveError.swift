/// What is wrong with an archive: a zip bundle, a foreign zip or tar file, or a
/// zstd-compressed object, read or being written. A system call that fails meanwhile
/// throws ``SystemError`` instead: the archive may be fine, the disk full.
///
/// The error names what went wrong (``kind``, a stable value to switch on), says it in words
/// (``message``), and locates it: the archive file (``path``) and the entry inside it
/// (``entry``), when they are known.
///
/// ```swift
/// do {
///     let reader = try StoredZipReader(path: url.path)
/// } catch let error as ArchiveError where error.kind == .checksumMismatch {
///     print("damaged: \(error.entry ?? "?")")
/// }
/// ```
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a stable value that callers (and `docctl`'s exit codes) switch on.
    public enum Kind: String, Sendable, CaseIterable {
        /// Thrown when a file is not an archive of a format this reader accepts
        /// (an empty file, random bytes, a 7z, RAR, ISO or cpio file).
        case notAnArchive
        /// Thrown when an archive ends early, or one of its offsets points past the end of the file.
        case truncated
        /// Thrown when an archive's records contradict each other or the format,
        /// for example a central directory that disagrees with a local header.
        case malformed
        /// Thrown when an archive is well formed but uses a feature this code refuses:
        /// compression or encryption in a bundle, data descriptors, split archives.
        case unsupported
        /// Thrown when an entry name could escape the extraction directory or is not portable:
        /// an absolute path, a `..` component, a backslash, invalid UTF-8.
        case unsafeEntry
        /// Thrown when two entries have the same name, or names that collide on a
        /// case-insensitive or normalization-insensitive file system (macOS, Windows).
        case duplicateEntry
        /// Thrown when an archive exceeds an ``ArchiveLimits`` value: too many entries,
        /// too many bytes, or a suspicious expansion ratio (a zip bomb).
        case limitExceeded
        /// Thrown when an entry's bytes do not match its recorded CRC-32.
        case checksumMismatch
        /// Thrown by a writer asked for more after it finished the archive, or after an
        /// earlier failure left the archive incomplete.
        case closed
    }

    /// What went wrong.
    public var kind: Kind
    /// Human-readable text, for example libarchive's own error string.
    public var message: String
    /// The archive file on disk, when known.
    public var path: String?
    /// The entry inside the archive, when known.
    public var entry: String?

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, path: String? = nil, entry: String? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
        self.entry = entry
    }

    /// `"<path>: entry '<entry>': <message>"`, leaving out the parts that are unknown.
    public var description: String {
        var parts: [String] = []
        if let path { parts.append(path) }
        if let entry { parts.append("entry '\(entry)'") }
        parts.append(message)
        return parts.joined(separator: ": ")
    }

    /// The same error with `path` and `entry` filled in where they are still unknown.
    ///
    /// Lets low-level helpers that know neither throw, and their callers add the context.
    package func adding(path: String? = nil, entry: String? = nil) -> ArchiveError {
        var copy = self
        if copy.path == nil { copy.path = path }
        if copy.entry == nil { copy.entry = entry }
        return copy
    }
}
