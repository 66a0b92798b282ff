import DocumentKitCore
import Foundation

/// Where the body of an `addEntry`/`addFile` call writes an entry's bytes, for both
/// archive writers.
///
/// It counts what passes through and refuses to go past the size the entry declared
/// (libarchive would silently truncate or pad instead), optionally computing the CRC-32
/// on the way. It cannot be copied, so no write can slip past the count.
package struct ArchiveEntrySink: ~Copyable {
    private let destination: (UnsafeRawBufferPointer) throws -> Void
    private let declaredSize: UInt64
    private let path: String
    private let entry: String
    private var crc: CRC32?
    /// Bytes written so far.
    package private(set) var bytesWritten: UInt64 = 0

    /// A sink passing bytes to `destination`; `computesCRC` when the writer needs the CRC-32.
    package init(
        declaredSize: UInt64, path: String, entry: String, computesCRC: Bool,
        destination: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) {
        self.destination = destination
        self.declaredSize = declaredSize
        self.path = path
        self.entry = entry
        self.crc = computesCRC ? CRC32() : nil
    }

    /// Appends `bytes` to the entry.
    ///
    /// - Throws: `.limitExceeded` if the entry would grow past its declared size; `.io`.
    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard UInt64(bytes.count) <= declaredSize - bytesWritten else {
            throw ArchiveError(
                .limitExceeded, "more than the declared \(declaredSize) bytes were written", path: path, entry: entry)
        }
        guard !bytes.isEmpty else { return }
        crc?.update(bytes)
        try destination(bytes)
        bytesWritten += UInt64(bytes.count)
        ProgressMeter.advance(.written, by: bytes.count)
    }

    /// Appends `bytes` (a `Data`, an `[UInt8]`...) to the entry.
    package mutating func write(_ bytes: some ContiguousBytes) throws {
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        try bytes.withUnsafeBytes { raw in Result { () throws in try write(raw) } }.get()
    }

    /// Checks that exactly the declared size was written; returns the CRC-32 if computed.
    @discardableResult
    package func finish() throws -> UInt32? {
        guard bytesWritten == declaredSize else {
            throw ArchiveError(
                .truncated, "\(bytesWritten) bytes were written; the entry declared \(declaredSize)",
                path: path, entry: entry)
        }
        return crc?.value
    }
}
