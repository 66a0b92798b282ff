import DocumentKitCore

/// One entry of a stored zip, as its central directory describes it.
///
/// Entries come from ``StoredZipReader/entries`` or ``StoredZipReader/entry(named:)``;
/// they locate the entry's bytes in the file without further reads.
package struct StoredZipEntry: Sendable, Equatable {
    /// The entry's name: a validated relative path (see ``ArchiveEntryName``).
    package var name: String
    /// Offset of the entry's local file header in the file.
    package var localHeaderOffset: UInt64
    /// Offset of the entry's first data byte, derived from the central directory: the local
    /// header repeats the name and holds a zip64 extra exactly when the central directory's
    /// sizes are in zip64 fields. Reading the entry checks that its local header agrees.
    package var dataOffset: UInt64
    /// The entry's size in bytes (stored, so compressed and uncompressed sizes are equal).
    package var size: UInt64
    /// The CRC-32 of the entry's bytes, from the central directory.
    package var crc32: UInt32
    /// The entry's position in the central directory, from 0.
    package var index: Int

    /// Creates an entry description.
    package init(name: String, localHeaderOffset: UInt64, dataOffset: UInt64, size: UInt64, crc32: UInt32, index: Int) {
        self.name = name
        self.localHeaderOffset = localHeaderOffset
        self.dataOffset = dataOffset
        self.size = size
        self.crc32 = crc32
        self.index = index
    }

    /// The offset just past the entry's last data byte.
    package var dataEnd: UInt64 { dataOffset + size }
}
