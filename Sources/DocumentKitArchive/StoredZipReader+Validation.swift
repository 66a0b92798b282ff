import DocumentKitCore

extension StoredZipReader {
    /// Checks `entry`'s local file header against the central directory: signature, flags,
    /// method, name, sizes, CRC-32, and that the data starts at ``StoredZipEntry/dataOffset``.
    ///
    /// A zip has two descriptions of every entry; tools that trust different ones see
    /// different files. Bundles accept only archives where both agree.
    ///
    /// - Parameter allowingStaleName: accept a header whose name is the entry's stale form
    ///   (``StoredZip/staleName(length:)``), sizes, CRC-32 and all else agreeing. A save in
    ///   place gives the entries it superseded that name once it has happened, and a reader
    ///   that read the central directory before that save goes on reading them: their data
    ///   does not move, and the layers above check it against its digest. The validator
    ///   turns this off: an entry the central directory lists must carry its own name.
    /// - Throws: `.malformed` on any disagreement, `.truncated` if the header is cut short.
    package func verifyLocalHeader(_ entry: StoredZipEntry, allowingStaleName: Bool = true) throws {
        do {
            try checkLocalHeader(entry, allowingStaleName: allowingStaleName)
        } catch {
            throw error.addingArchiveContext(path: path, entry: entry.name)
        }
    }

    /// Throws unless `entry` is one of this reader's entries, unchanged.
    package func checkOwnership(_ entry: StoredZipEntry) throws {
        guard entries.indices.contains(entry.index), entries[entry.index] == entry else {
            throw ArchiveError(.malformed, "the entry does not belong to this archive", path: path, entry: entry.name)
        }
    }

    private func checkLocalHeader(_ entry: StoredZipEntry, allowingStaleName: Bool) throws {
        try checkOwnership(entry)
        // Bounded: a fixed header, a name of at most 4,096 bytes and a 20-byte zip64 extra.
        let headerSize = Int(entry.dataOffset - entry.localHeaderOffset)
        let expectedName = Array(entry.name.utf8)
        let expectedExtra = headerSize - StoredZip.localHeaderSize - expectedName.count
        var cursor = ByteCursor(
            try POSIXFile.read(fileDescriptor, count: headerSize, at: entry.localHeaderOffset, path: path))
        do {
            guard try cursor.uint32() == StoredZip.localHeaderSignature else {
                throw ArchiveError(.malformed, "no local file header at byte \(entry.localHeaderOffset)")
            }
            try cursor.skip(2)  // version needed
            let flags = try cursor.uint16()
            let method = try cursor.uint16()
            try cursor.skip(4)  // DOS time and date
            let crc32 = try cursor.uint32()
            let compressedSize = try cursor.uint32()
            let uncompressedSize = try cursor.uint32()
            let nameLength = Int(try cursor.uint16())
            let extraLength = Int(try cursor.uint16())
            let refused = StoredZip.encryptionFlags | StoredZip.dataDescriptorFlag
            guard flags & refused == 0, method == StoredZip.methodStored else {
                throw ArchiveError(
                    .malformed,
                    """
                    the local header (flags 0x\(Self.hexadecimal(flags)), method \(method)) disagrees with the \
                    central directory
                    """
                )
            }
            let disagreement = ArchiveError(
                .malformed, "the local header's name or extra fields disagree with the central directory")
            guard nameLength == expectedName.count, extraLength == expectedExtra else { throw disagreement }
            let name = try cursor.bytes(nameLength)
            if !name.elementsEqual(expectedName) {
                guard let stale = StoredZip.staleName(length: nameLength), name.elementsEqual(stale) else {
                    throw disagreement
                }
                guard allowingStaleName else {
                    throw ArchiveError(
                        .malformed,
                        """
                        the local header carries a superseded entry's name, \
                        '\(String(decoding: name, as: UTF8.self))': readers that walk local headers from the start \
                        of the file do not see the entry
                        """
                    )
                }
            }
            var sizes = (compressed: UInt64(compressedSize), uncompressed: UInt64(uncompressedSize))
            if expectedExtra == StoredZip.localZip64ExtraSize {
                guard compressedSize == StoredZip.saturated32, uncompressedSize == StoredZip.saturated32,
                    try cursor.uint16() == StoredZip.zip64ExtraID, try cursor.uint16() == 16
                else {
                    throw ArchiveError(.malformed, "the local header's zip64 extra field is not as expected")
                }
                sizes = (compressed: 0, uncompressed: try cursor.uint64())
                sizes.compressed = try cursor.uint64()
            }
            guard sizes.compressed == entry.size, sizes.uncompressed == entry.size else {
                throw ArchiveError(
                    .malformed,
                    """
                    the local header's sizes (\(sizes.compressed), \(sizes.uncompressed)) disagree with the \
                    central directory's \(entry.size)
                    """
                )
            }
            guard crc32 == entry.crc32 else {
                throw ArchiveError(
                    .malformed,
                    """
                    the local header's CRC-32 0x\(Self.hexadecimal(crc32)) disagrees with the central directory's \
                    0x\(Self.hexadecimal(entry.crc32))
                    """
                )
            }
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(.truncated, "the local header is cut short")
        }
    }
}

extension StoredZipReader {
    /// `value` in hexadecimal, zero-padded to its width, for messages about CRCs and flags.
    package static func hexadecimal<T: FixedWidthInteger>(_ value: T) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, T.bitWidth / 4 - digits.count)) + digits
    }
}
