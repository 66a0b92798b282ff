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

    /// The name of the entry that keeps room after `document.json` for a later save's
    /// larger document, or covers the stretch a killed save was writing a document into
    /// (FORMAT.md §1, "Room"): zeros, or bytes no entry refers to.
    package static let roomName: [UInt8] = Array(".stale/room".utf8)

    /// The local header of a stored entry called `name` that covers a stretch starting at
    /// `offset` and `regionSize` bytes long: the header takes its first bytes, and the
    /// rest, unchanged, is its data (`crc32` is theirs). The header has the zip64 extra
    /// field when the data is 4 GiB or more. With ``supersededDirectoryName`` it covers a
    /// superseded central directory and end records; with ``roomName``, room.
    ///
    /// `nil` when the stretch is too short to hold the header, which no central directory
    /// of a bundle is (one record and the end record are 76 bytes; the header is 46).
    package static func coveringHeader(
        name: [UInt8], regionSize: UInt64, at offset: UInt64, crc32: UInt32
    ) -> [UInt8]? {
        guard let size = coveredDataSize(nameLength: name.count, regionSize: regionSize) else { return nil }
        let zip64 = needsZip64(size)
        return localHeader(
            name: name, size: size, crc32: crc32, zip64Sizes: zip64,
            versionNeeded: zip64 || needsZip64(offset) ? versionNeededZip64 : versionNeededStored)
    }

    /// The data size of an entry with a name of `nameLength` bytes covering a stretch of
    /// `regionSize` bytes: what its local header leaves of it. `nil` when the header does
    /// not fit.
    package static func coveredDataSize(nameLength: Int, regionSize: UInt64) -> UInt64? {
        let plain = UInt64(localHeaderSize + nameLength)
        guard regionSize >= plain else { return nil }
        guard needsZip64(regionSize - plain) else { return regionSize - plain }
        guard regionSize - plain >= UInt64(localZip64ExtraSize) else { return nil }
        return regionSize - plain - UInt64(localZip64ExtraSize)
    }
}
