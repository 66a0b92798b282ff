import DocumentKitCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A strict reader of the stored zips that ``StoredZipWriter`` writes: DocumentKit bundles.
///
/// Opening parses the end records and the whole central directory once, validating every
/// name, size and offset; after that, looking an entry up by name is a dictionary lookup
/// and reading it is a `pread` of its local header and one of its bytes.
///
/// ```swift
/// let reader = try StoredZipReader(path: bundlePath)
/// if let manifest = reader.entry(named: "manifest.json") {
///     let data = try reader.readData(manifest)
/// }
/// ```
///
/// It refuses, with an ``ArchiveError`` naming the file and the entry: files that are not
/// zips (`.notAnArchive`), cut short (`.truncated`), compressed, encrypted or split archives
/// or data descriptors (`.unsupported`), unsafe names (`.unsafeEntry`), names that collide
/// (`.duplicateEntry`), more than the limits allow (`.limitExceeded`), records that
/// contradict each other (`.malformed`) and damaged data (`.checksumMismatch`).
///
/// Immutable after opening and reading only with `pread`, so one reader can serve
/// several threads at once.
package final class StoredZipReader: Sendable {
    /// The archive's path.
    package let path: String
    /// The entries, in central directory order.
    package let entries: [StoredZipEntry]
    /// The open, read-only descriptor, for ``StoredZipWriter/copyEntry(_:from:as:)``.
    /// Owned by the reader: closed when it is deinitialized.
    package let fileDescriptor: Int32

    /// The status of the open file (`fstat(2)`): which file it is, and how long.
    package func fileStatus() throws -> stat {
        try POSIXFile.status(fileDescriptor, path: path)
    }
    /// Offset of the central directory: entries' data must end before it.
    package let centralDirectoryOffset: UInt64
    /// Where the zip ends: the file's size, or less when the file has an interrupted
    /// append's tail after it.
    package let length: UInt64
    private let indexByName: [String: Int]

    /// Opens the zip at `path` (`O_RDONLY | O_CLOEXEC`) and reads its central directory.
    ///
    /// - Parameter length: read the file as if it ended here: the zip an interrupted
    ///   append left in front of its partial tail (see ``AppendJournal``).
    /// - Throws: ``ArchiveError``; see the type's description for the kinds.
    package init(path: String, limits: ArchiveLimits = .default, length: UInt64? = nil) throws {
        let fd = try POSIXFile.open(path, flags: O_RDONLY)
        // Before reading the directory: a save that finds no reader's mark below the
        // newest directory may reuse bytes older directories refer to (`ReaderMark`).
        ReaderMark.holdOpening(fd)
        do {
            let actualSize = try POSIXFile.regularFileSize(fd, path: path)
            let fileSize = min(actualSize, length ?? actualSize)
            let end = try StoredZipEndRecord.locate(in: fd, fileSize: fileSize, path: path)
            let entries = try StoredZipCentralDirectory.read(
                from: fd, end: end, fileSize: fileSize, limits: limits, path: path)
            var indexByName: [String: Int] = [:]
            indexByName.reserveCapacity(entries.count)
            for entry in entries { indexByName[entry.name] = entry.index }
            self.path = path
            self.entries = entries
            self.fileDescriptor = fd
            self.centralDirectoryOffset = end.centralDirectoryOffset
            ReaderMark.hold(fd, directoryAt: end.centralDirectoryOffset)
            self.length = fileSize
            self.indexByName = indexByName
        } catch {
            POSIXFile.close(fd)
            throw error
        }
    }

    deinit {
        POSIXFile.close(fileDescriptor)
    }

    /// Bytes before the central directory that no entry's header or data covers: what
    /// in-place appends left behind, and a rewrite would reclaim.
    package var unreferencedBytes: UInt64 {
        centralDirectoryOffset - entries.reduce(0) { $0 + ($1.dataEnd - $1.localHeaderOffset) }
    }

    /// The entry called `name`, or `nil`.
    package func entry(named name: String) -> StoredZipEntry? {
        indexByName[name].map { entries[$0] }
    }
}
