import DocumentKitCore

/// One central directory file header (APPNOTE 4.3.12), as read, before any checks.
struct CentralRecord {
    var madeBy: UInt16
    var externalAttributes: UInt32
    var flags: UInt16
    var method: UInt16
    var crc32: UInt32
    var compressedSize: UInt64
    var uncompressedSize: UInt64
    var diskNumber: UInt64
    var localHeaderOffset: UInt64
    var name: ArraySlice<UInt8>
    var extra: ArraySlice<UInt8>

    /// Reads the record at `cursor`, whose signature the caller has checked.
    init(_ cursor: inout ByteCursor) throws(ByteCursor.EndOfData) {
        try cursor.skip(4)  // signature
        madeBy = try cursor.uint16()
        try cursor.skip(2)  // version needed
        flags = try cursor.uint16()
        method = try cursor.uint16()
        try cursor.skip(4)  // DOS time and date
        crc32 = try cursor.uint32()
        compressedSize = UInt64(try cursor.uint32())
        uncompressedSize = UInt64(try cursor.uint32())
        let nameLength = Int(try cursor.uint16())
        let extraLength = Int(try cursor.uint16())
        let commentLength = Int(try cursor.uint16())
        diskNumber = UInt64(try cursor.uint16())
        try cursor.skip(2)  // internal attributes
        externalAttributes = try cursor.uint32()
        localHeaderOffset = UInt64(try cursor.uint32())
        name = try cursor.bytes(nameLength)
        extra = try cursor.bytes(extraLength)
        try cursor.skip(commentLength)
    }

    /// The name for error messages, whatever its bytes.
    var displayName: String { String(decoding: name, as: UTF8.self) }

    /// Checks the record and derives the entry, or throws an error without path or entry.
    func entry(index: Int, centralDirectoryOffset: UInt64, fileSize: UInt64) throws -> StoredZipEntry {
        if flags & StoredZip.encryptionFlags != 0 {
            throw ArchiveError(.unsupported, "the entry is encrypted; bundle entries must not be")
        }
        guard method == StoredZip.methodStored else {
            throw ArchiveError(
                .unsupported, "the entry is compressed (method \(method)); bundle entries must be stored")
        }
        if flags & StoredZip.dataDescriptorFlag != 0 {
            throw ArchiveError(
                .unsupported,
                "the entry uses a data descriptor; bundle entries must carry their sizes in the local header")
        }
        if flags & StoredZip.utf8NamesFlag == 0, name.contains(where: { $0 >= 0x80 }) {
            throw ArchiveError(.unsafeEntry, "the entry name is not ASCII and not marked as UTF-8")
        }
        let name = try ArchiveEntryName.decode(self.name)
        // Unix-made entries carry their file type in the external attributes. A bundle
        // holds regular files only: a symbolic link or folder entry is someone's trick.
        let fileType = (externalAttributes >> 16) & 0o170000
        if madeBy >> 8 == 3, fileType != 0, fileType != 0o100000 {
            let kind =
                fileType == 0o120000 ? "a symbolic link" : fileType == 0o040000 ? "a folder" : "not a regular file"
            throw ArchiveError(.unsafeEntry, "the entry is \(kind); bundle entries must be regular files")
        }
        if name.hasSuffix("/") {
            throw ArchiveError(.unsafeEntry, "the entry is a folder; bundle entries must be regular files")
        }
        let sizesInZip64 = uncompressedSize == UInt64(StoredZip.saturated32)
        var resolved = (
            uncompressed: uncompressedSize, compressed: compressedSize, offset: localHeaderOffset, disk: diskNumber
        )
        try resolveZip64(&resolved)
        guard resolved.disk == 0 else {
            throw ArchiveError(.unsupported, "split (multi-disk) zip archives are not supported")
        }
        guard resolved.compressed == resolved.uncompressed else {
            throw ArchiveError(
                .malformed,
                """
                the stored entry's compressed size \(resolved.compressed) differs from its size \
                \(resolved.uncompressed)
                """
            )
        }
        let headerSize = UInt64(
            StoredZip.localHeaderSize + self.name.count + (sizesInZip64 ? StoredZip.localZip64ExtraSize : 0))
        let (dataOffset, overflow1) = resolved.offset.addingReportingOverflow(headerSize)
        let (dataEnd, overflow2) = dataOffset.addingReportingOverflow(resolved.uncompressed)
        guard !overflow1, !overflow2, dataEnd <= fileSize else {
            throw ArchiveError(.truncated, "the entry's data extends past the end of the file")
        }
        guard dataEnd <= centralDirectoryOffset else {
            throw ArchiveError(.malformed, "the entry's data overlaps the central directory")
        }
        return StoredZipEntry(
            name: name, localHeaderOffset: resolved.offset, dataOffset: dataOffset,
            size: resolved.uncompressed, crc32: crc32, index: index)
    }

    /// Replaces saturated fields with the values of the zip64 extra field (APPNOTE 4.5.3),
    /// which holds only those fields, in this order.
    private func resolveZip64(
        _ values: inout (uncompressed: UInt64, compressed: UInt64, offset: UInt64, disk: UInt64)
    ) throws {
        let saturated = UInt64(StoredZip.saturated32)
        let needed = (
            uncompressed: values.uncompressed == saturated, compressed: values.compressed == saturated,
            offset: values.offset == saturated, disk: values.disk == UInt64(StoredZip.saturated16)
        )
        guard needed.uncompressed || needed.compressed || needed.offset || needed.disk else { return }
        var cursor = ByteCursor(Array(extra))
        do {
            while cursor.remaining > 0 {
                let id = try cursor.uint16()
                let length = Int(try cursor.uint16())
                var field = ByteCursor(Array(try cursor.bytes(length)))
                guard id == StoredZip.zip64ExtraID else { continue }
                if needed.uncompressed { values.uncompressed = try field.uint64() }
                if needed.compressed { values.compressed = try field.uint64() }
                if needed.offset { values.offset = try field.uint64() }
                if needed.disk { values.disk = UInt64(try field.uint32()) }
                return
            }
        } catch {
            throw ArchiveError(.malformed, "the entry's extra fields are cut short")
        }
        throw ArchiveError(.malformed, "the entry's sizes or offset need a zip64 extra field, which is missing")
    }
}
