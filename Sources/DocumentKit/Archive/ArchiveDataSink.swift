import CArchive
import Foundation

/// Where the body of ``ArchiveWriter/addFile(name:size:mode:modificationTime:compression:body:)``
/// writes a file's bytes.
///
/// libarchive silently truncates or pads data that does not match the declared size; the
/// sink refuses extra bytes instead, and the writer refuses a short entry. It cannot be
/// copied, so no write can slip past the count.
package struct ArchiveDataSink: ~Copyable {
    private let archive: OpaquePointer
    private let declaredSize: UInt64
    private let path: String
    private let entry: String
    /// Bytes written so far.
    package private(set) var bytesWritten: UInt64 = 0

    init(archive: OpaquePointer, declaredSize: UInt64, path: String, entry: String) {
        self.archive = archive
        self.declaredSize = declaredSize
        self.path = path
        self.entry = entry
    }

    /// Appends `bytes` to the entry (`archive_write_data`).
    ///
    /// - Throws: `.limitExceeded` past the declared size; `.io` if libarchive fails.
    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ArchiveError) {
        guard UInt64(bytes.count) <= declaredSize - bytesWritten else {
            throw ArchiveError(
                .limitExceeded, "more than the declared \(declaredSize) bytes were written", path: path, entry: entry)
        }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let written = LibArchive.withUTF8Locale { archive_write_data(archive, base, bytes.count) }
        guard written == bytes.count else {
            if written < 0 { throw LibArchive.error(archive, kind: .io, path: path, entry: entry) }
            throw ArchiveError(
                .io, "libarchive accepted \(written) of \(bytes.count) bytes", path: path, entry: entry)
        }
        bytesWritten += UInt64(bytes.count)
    }

    /// Appends `bytes` (a `Data`, an `[UInt8]`...) to the entry.
    package mutating func write(_ bytes: some ContiguousBytes) throws(ArchiveError) {
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        try bytes.withUnsafeBytes { raw in Result { () throws(ArchiveError) in try write(raw) } }.get()
    }

    /// Checks that exactly the declared size was written.
    func finish() throws(ArchiveError) {
        guard bytesWritten == declaredSize else {
            throw ArchiveError(
                .truncated, "\(bytesWritten) bytes were written; the entry declared \(declaredSize)",
                path: path, entry: entry)
        }
    }
}
