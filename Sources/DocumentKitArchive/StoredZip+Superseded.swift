import DocumentKitCore

/// How a save in place marks the bytes it superseded (FORMAT.md §8, step A5, and §9), so
/// that a reader walking local headers from the start of the file, instead of reading the
/// central directory (a streaming reader), never takes them for the bundle's entries.
///
/// A superseded entry's local header keeps its sizes, CRC-32 and data, and gets a name of
/// the same length in the folder `.stale/`. The superseded central directory and end
/// records become the data of one stored entry, `.stale/directory`, whose local header is
/// written over the directory's first bytes. A streaming reader then meets entries under
/// names no one asks for, and stops at the live central directory.
extension StoredZip {
    /// The folder superseded entries are renamed into: no bundle entry is in it.
    package static let staleFolder: [UInt8] = Array(".stale/".utf8)
    /// The byte that pads a stale name to the length of the name it replaces.
    package static let stalePadding = UInt8(ascii: "x")
    /// The name of the entry that covers a superseded central directory and its end records.
    package static let supersededDirectoryName: [UInt8] = Array(".stale/directory".utf8)

    /// The stale form of a name of `length` bytes: `.stale/` padded with `x` to that length,
    /// so that renaming moves no byte. `nil` for a name shorter than `.stale/x` (8 bytes),
    /// which no entry of the bundle format has.
    package static func staleName(length: Int) -> [UInt8]? {
        guard length > staleFolder.count else { return nil }
        return staleFolder + [UInt8](repeating: stalePadding, count: length - staleFolder.count)
    }

    /// Whether `name` is in the stale folder: a superseded entry or directory.
    package static func isStale(_ name: some Sequence<UInt8>) -> Bool {
        name.starts(with: staleFolder)
    }

    /// The local header of the entry covering a superseded central directory and end
    /// records that start at `offset` and are `regionSize` bytes long: the header takes
    /// their first bytes, and the rest, unchanged, is its data (`crc32` is theirs). The
    /// header has the zip64 extra field when the data is 4 GiB or more.
    ///
    /// `nil` when the region is too short to hold the header, which no central directory
    /// of a bundle is (one record and the end record are 76 bytes; the header is 46).
    package static func supersededDirectoryHeader(
        regionSize: UInt64, at offset: UInt64,
        crc32: UInt32
    ) -> [UInt8]? {
        guard let size = supersededDirectoryDataSize(regionSize: regionSize) else { return nil }
        let zip64 = needsZip64(size)
        return localHeader(
            name: supersededDirectoryName, size: size, crc32: crc32, zip64Sizes: zip64,
            versionNeeded: zip64 || needsZip64(offset) ? versionNeededZip64 : versionNeededStored)
    }

    /// The data size of the entry covering a superseded region of `regionSize` bytes: what
    /// its local header leaves of it. `nil` when the header does not fit.
    package static func supersededDirectoryDataSize(regionSize: UInt64) -> UInt64? {
        let plain = UInt64(localHeaderSize + supersededDirectoryName.count)
        guard regionSize >= plain else { return nil }
        guard needsZip64(regionSize - plain) else { return regionSize - plain }
        return regionSize - plain - UInt64(localZip64ExtraSize)
    }
}
