import DocumentKitCore

/// The byte layout of DocumentKit's stored zip files: the constants and record encoders
/// shared by ``StoredZipWriter`` and ``StoredZipReader``.
///
/// FORMAT.md §9 documents the same layout for people; the two must
/// change together. Record layouts follow PKWARE's APPNOTE.TXT 6.3.x, sections 4.3 and 4.5.
package enum StoredZip {
    // MARK: Signatures (APPNOTE 4.3.7, 4.3.12, 4.3.14, 4.3.15, 4.3.16)

    package static let localHeaderSignature: UInt32 = 0x0403_4B50
    package static let centralHeaderSignature: UInt32 = 0x0201_4B50
    package static let zip64EndRecordSignature: UInt32 = 0x0606_4B50
    package static let zip64LocatorSignature: UInt32 = 0x0706_4B50
    package static let endRecordSignature: UInt32 = 0x0605_4B50

    // MARK: Fixed record sizes, without their variable-length tails

    package static let localHeaderSize = 30
    package static let centralHeaderSize = 46
    package static let zip64EndRecordSize = 56
    package static let zip64LocatorSize = 20
    package static let endRecordSize = 22

    // MARK: Field values every entry shares

    /// Version made by: upper byte 3 = Unix (so tools read the external attributes as a
    /// Unix mode), lower byte 63 = APPNOTE 6.3, which defined the UTF-8 flag we set.
    package static let versionMadeBy: UInt16 = 0x033F
    /// Version needed to extract a stored entry: 1.0.
    package static let versionNeededStored: UInt16 = 10
    /// Version needed to extract an entry with zip64 fields, and for the zip64 end record: 4.5.
    package static let versionNeededZip64: UInt16 = 45
    /// General-purpose flags: only bit 11, "names are UTF-8". Never bit 3 (data descriptor).
    package static let flags: UInt16 = utf8NamesFlag
    /// General-purpose bit 11: the name is UTF-8 (APPNOTE 4.4.4, appendix D).
    package static let utf8NamesFlag: UInt16 = 0x0800
    /// General-purpose bit 3: sizes and CRC follow the data in a data descriptor.
    package static let dataDescriptorFlag: UInt16 = 0x0008
    /// General-purpose bits 0 (encrypted) and 6 (strong encryption).
    package static let encryptionFlags: UInt16 = 0x0041
    /// Compression method 0: stored.
    package static let methodStored: UInt16 = 0
    /// MS-DOS time 00:00:00, fixed so that bytes never depend on a clock or a time zone.
    package static let dosTime: UInt16 = 0x0000
    /// MS-DOS date 1980-01-01 (day 1, month 1, year 1980 + 0), the earliest DOS date.
    package static let dosDate: UInt16 = 0x0021
    /// External attributes: Unix mode 0o100644 (regular file, rw-r--r--) in the upper 16 bits.
    package static let externalAttributes: UInt32 = 0o100644 << 16

    // MARK: Zip64 (APPNOTE 4.5.3)

    /// Header ID of the zip64 extended information extra field.
    package static let zip64ExtraID: UInt16 = 0x0001
    /// The value a 32-bit field holds when the real value is in a zip64 field.
    package static let saturated32: UInt32 = 0xFFFF_FFFF
    /// The value a 16-bit entry count holds when the real count is in the zip64 end record.
    package static let saturated16: UInt16 = 0xFFFF
    /// Size of the local header's zip64 extra: ID, length, uncompressed and compressed size.
    package static let localZip64ExtraSize = 20

    /// Whether a size or offset must move to a zip64 field (the 32-bit field is saturated
    /// even at exactly 0xFFFFFFFF, which would otherwise read as "look in zip64").
    package static func needsZip64(_ value: UInt64) -> Bool { value >= UInt64(saturated32) }

    // MARK: Record encoders

    /// A local file header (APPNOTE 4.3.7) followed by its name and, when `zip64Sizes`,
    /// the zip64 extra holding both sizes.
    package static func localHeader(
        name: [UInt8], size: UInt64, crc32: UInt32, zip64Sizes: Bool, versionNeeded: UInt16
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(localHeaderSize + name.count + localZip64ExtraSize)
        bytes.appendLittleEndian(localHeaderSignature)
        bytes.appendLittleEndian(versionNeeded)
        bytes.appendLittleEndian(flags)
        bytes.appendLittleEndian(methodStored)
        bytes.appendLittleEndian(dosTime)
        bytes.appendLittleEndian(dosDate)
        bytes.appendLittleEndian(crc32)
        let size32 = zip64Sizes ? saturated32 : UInt32(truncatingIfNeeded: size)
        bytes.appendLittleEndian(size32)  // compressed size
        bytes.appendLittleEndian(size32)  // uncompressed size
        bytes.appendLittleEndian(UInt16(name.count))
        bytes.appendLittleEndian(UInt16(zip64Sizes ? localZip64ExtraSize : 0))
        bytes.append(contentsOf: name)
        if zip64Sizes {
            bytes.appendLittleEndian(zip64ExtraID)
            bytes.appendLittleEndian(UInt16(16))
            bytes.appendLittleEndian(size)  // uncompressed size first, as APPNOTE orders them
            bytes.appendLittleEndian(size)
        }
        return bytes
    }

    /// Offset of the CRC-32 field inside a local header, patched once the data is written.
    package static let localHeaderCRCOffset: UInt64 = 14

    /// A central directory file header (APPNOTE 4.3.12) with its name and zip64 extra.
    ///
    /// The zip64 extra holds only the fields whose 32-bit slots are saturated, in APPNOTE
    /// order: uncompressed size, compressed size, local header offset.
    package static func centralHeader(
        name: [UInt8], size: UInt64, crc32: UInt32, localHeaderOffset: UInt64,
        zip64Sizes: Bool, zip64Offset: Bool, versionNeeded: UInt16
    ) -> [UInt8] {
        var extra: [UInt8] = []
        if zip64Sizes || zip64Offset {
            let fieldCount = (zip64Sizes ? 2 : 0) + (zip64Offset ? 1 : 0)
            extra.appendLittleEndian(zip64ExtraID)
            extra.appendLittleEndian(UInt16(8 * fieldCount))
            if zip64Sizes {
                extra.appendLittleEndian(size)
                extra.appendLittleEndian(size)
            }
            if zip64Offset { extra.appendLittleEndian(localHeaderOffset) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(centralHeaderSize + name.count + extra.count)
        bytes.appendLittleEndian(centralHeaderSignature)
        bytes.appendLittleEndian(versionMadeBy)
        bytes.appendLittleEndian(versionNeeded)
        bytes.appendLittleEndian(flags)
        bytes.appendLittleEndian(methodStored)
        bytes.appendLittleEndian(dosTime)
        bytes.appendLittleEndian(dosDate)
        bytes.appendLittleEndian(crc32)
        let size32 = zip64Sizes ? saturated32 : UInt32(truncatingIfNeeded: size)
        bytes.appendLittleEndian(size32)  // compressed size
        bytes.appendLittleEndian(size32)  // uncompressed size
        bytes.appendLittleEndian(UInt16(name.count))
        bytes.appendLittleEndian(UInt16(extra.count))
        bytes.appendLittleEndian(UInt16(0))  // comment length
        bytes.appendLittleEndian(UInt16(0))  // disk number start
        bytes.appendLittleEndian(UInt16(0))  // internal attributes
        bytes.appendLittleEndian(externalAttributes)
        bytes.appendLittleEndian(zip64Offset ? saturated32 : UInt32(truncatingIfNeeded: localHeaderOffset))
        bytes.append(contentsOf: name)
        bytes.append(contentsOf: extra)
        return bytes
    }

    /// The records after the central directory: the zip64 end record and its locator when
    /// needed or `forceZip64` (APPNOTE 4.3.14, 4.3.15), then the end record (4.3.16), where
    /// only the fields too small for their values are saturated (all of them when forced).
    package static func endRecords(
        entryCount: Int, centralDirectoryOffset: UInt64, centralDirectorySize: UInt64, forceZip64: Bool
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        let count = UInt64(entryCount)
        let zip64 =
            forceZip64
            || needsZip64EndRecords(
                entryCount: entryCount, centralDirectoryOffset: centralDirectoryOffset,
                centralDirectorySize: centralDirectorySize)
        if zip64 {
            let zip64EndOffset = centralDirectoryOffset + centralDirectorySize
            bytes.appendLittleEndian(zip64EndRecordSignature)
            bytes.appendLittleEndian(UInt64(zip64EndRecordSize - 12))  // size of the rest of the record
            bytes.appendLittleEndian(versionMadeBy)
            bytes.appendLittleEndian(versionNeededZip64)
            bytes.appendLittleEndian(UInt32(0))  // this disk
            bytes.appendLittleEndian(UInt32(0))  // disk with the central directory
            bytes.appendLittleEndian(count)  // entries on this disk
            bytes.appendLittleEndian(count)  // entries in total
            bytes.appendLittleEndian(centralDirectorySize)
            bytes.appendLittleEndian(centralDirectoryOffset)
            bytes.appendLittleEndian(zip64LocatorSignature)
            bytes.appendLittleEndian(UInt32(0))  // disk with the zip64 end record
            bytes.appendLittleEndian(zip64EndOffset)
            bytes.appendLittleEndian(UInt32(1))  // total number of disks
        }
        let count16 = forceZip64 || count >= UInt64(saturated16) ? saturated16 : UInt16(count)
        bytes.appendLittleEndian(endRecordSignature)
        bytes.appendLittleEndian(UInt16(0))  // this disk
        bytes.appendLittleEndian(UInt16(0))  // disk with the central directory
        bytes.appendLittleEndian(count16)
        bytes.appendLittleEndian(count16)
        bytes.appendLittleEndian(saturating(centralDirectorySize, force: forceZip64))
        bytes.appendLittleEndian(saturating(centralDirectoryOffset, force: forceZip64))
        bytes.appendLittleEndian(UInt16(0))  // comment length
        return bytes
    }

    /// `value` as a 32-bit field: itself, or 0xFFFFFFFF when it needs zip64 or zip64 is forced.
    package static func saturating(_ value: UInt64, force: Bool) -> UInt32 {
        force || needsZip64(value) ? saturated32 : UInt32(value)
    }

    /// Whether the archive needs the zip64 end records.
    package static func needsZip64EndRecords(
        entryCount: Int, centralDirectoryOffset: UInt64, centralDirectorySize: UInt64
    ) -> Bool {
        entryCount >= Int(saturated16) || needsZip64(centralDirectoryOffset) || needsZip64(centralDirectorySize)
    }
}
