import Foundation

/// Where the body of ``StoredZipWriter/addEntry(name:size:body:)`` writes an entry's bytes.
///
/// The sink counts and checksums what passes through it and refuses to go past the size
/// the entry declared. It cannot be copied, so no write can slip past the count.
package struct StoredZipSink: ~Copyable {
    private let output: FileOutputBuffer
    private let declaredSize: UInt64
    private let path: String
    private let entry: String
    private var crc = CRC32()
    /// Bytes written so far.
    package private(set) var bytesWritten: UInt64 = 0

    init(output: FileOutputBuffer, declaredSize: UInt64, path: String, entry: String) {
        self.output = output
        self.declaredSize = declaredSize
        self.path = path
        self.entry = entry
    }

    /// Appends `bytes` to the entry.
    ///
    /// - Throws: `.limitExceeded` if the entry would grow past its declared size; `.io`.
    package mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ArchiveError) {
        guard UInt64(bytes.count) <= declaredSize - bytesWritten else {
            throw ArchiveError(
                .limitExceeded, "more than the declared \(declaredSize) bytes were written",
                path: path, entry: entry)
        }
        crc.update(bytes)
        try output.append(bytes)
        bytesWritten += UInt64(bytes.count)
    }

    /// Appends `bytes` (a `Data`, an `[UInt8]`...) to the entry.
    package mutating func write(_ bytes: some ContiguousBytes) throws(ArchiveError) {
        // `withUnsafeBytes` rethrows untyped errors: carry the typed one out in a `Result`.
        try bytes.withUnsafeBytes { raw in Result { () throws(ArchiveError) in try write(raw) } }.get()
    }

    /// Checks that exactly the declared size was written; returns the CRC-32.
    mutating func finish() throws(ArchiveError) -> UInt32 {
        guard bytesWritten == declaredSize else {
            throw ArchiveError(
                .truncated, "\(bytesWritten) bytes were written; the entry declared \(declaredSize)",
                path: path, entry: entry)
        }
        return crc.value
    }
}
