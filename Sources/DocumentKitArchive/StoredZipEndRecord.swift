import DocumentKitCore

/// Where a stored zip's central directory is, read from its end records.
package struct StoredZipEndRecord {
    package var entryCount: UInt64
    package var centralDirectoryOffset: UInt64
    package var centralDirectorySize: UInt64

    /// Finds and checks the end of central directory record and, when present, the zip64
    /// end record and locator before it (APPNOTE 4.3.14-4.3.16).
    ///
    /// The central directory must end exactly where the end records begin: nothing may
    /// hide between them.
    package static func locate(in fd: Int32, fileSize: UInt64, path: String) throws -> StoredZipEndRecord {
        let endSize = UInt64(StoredZip.endRecordSize)
        // The end record is the last 22 bytes plus a comment of at most 65,535 bytes.
        let tailLength = Int(min(fileSize, endSize + 0xFFFF))
        let tail = try POSIXFile.read(fd, count: tailLength, at: fileSize - UInt64(tailLength), path: path)
        guard let position = endRecordPosition(in: tail) else {
            let head = try POSIXFile.read(fd, count: Int(min(fileSize, 4)), at: 0, path: path)
            if ByteCursor.uint32(head, at: 0) == StoredZip.localHeaderSignature {
                throw ArchiveError(.truncated, "the zip's end of central directory record is missing", path: path)
            }
            throw ArchiveError(.notAnArchive, "not a zip archive", path: path)
        }
        let endOffset = fileSize - UInt64(tailLength) + UInt64(position)
        var cursor = ByteCursor(tail, position: position + 4)
        let fields: [UInt64]
        do {
            // this disk, disk with the directory, entries here, entries in total, size, offset
            fields = [
                UInt64(try cursor.uint16()), UInt64(try cursor.uint16()), UInt64(try cursor.uint16()),
                UInt64(try cursor.uint16()), UInt64(try cursor.uint32()), UInt64(try cursor.uint32())
            ]
        } catch {
            throw ArchiveError(.truncated, "the end of central directory record is cut short", path: path)
        }
        var record = StoredZipEndRecord(
            entryCount: fields[3], centralDirectoryOffset: fields[5], centralDirectorySize: fields[4])
        var disks = (this: fields[0], directory: fields[1], entriesHere: fields[2])
        var directoryEnd = endOffset

        if let zip64 = try zip64EndRecord(in: fd, endOffset: endOffset, path: path) {
            // A saturated field defers to the zip64 record; any other must agree with it.
            let pairs: [(UInt64, UInt64, UInt64)] = [
                (fields[0], UInt64(StoredZip.saturated16), zip64.this),
                (fields[1], UInt64(StoredZip.saturated16), zip64.directory),
                (fields[2], UInt64(StoredZip.saturated16), zip64.entriesHere),
                (fields[3], UInt64(StoredZip.saturated16), zip64.record.entryCount),
                (fields[4], UInt64(StoredZip.saturated32), zip64.record.centralDirectorySize),
                (fields[5], UInt64(StoredZip.saturated32), zip64.record.centralDirectoryOffset)
            ]
            for (value, saturated, zip64Value) in pairs where value != saturated && value != zip64Value {
                throw ArchiveError(.malformed, "the end record and the zip64 end record disagree", path: path)
            }
            record = zip64.record
            disks = (zip64.this, zip64.directory, zip64.entriesHere)
            directoryEnd = zip64.offset
        }
        guard disks.this == 0, disks.directory == 0, disks.entriesHere == record.entryCount else {
            throw ArchiveError(.unsupported, "split (multi-disk) zip archives are not supported", path: path)
        }
        let (end, overflow) = record.centralDirectoryOffset.addingReportingOverflow(record.centralDirectorySize)
        guard !overflow, end <= fileSize else {
            throw ArchiveError(.truncated, "the central directory extends past the end of the file", path: path)
        }
        guard end == directoryEnd else {
            throw ArchiveError(
                .malformed,
                "the central directory ends at byte \(end) but the end records start at byte \(directoryEnd)",
                path: path)
        }
        return record
    }

    /// The position of the end record in `tail`: the last signature whose comment length
    /// reaches exactly the end of the file.
    private static func endRecordPosition(in tail: [UInt8]) -> Int? {
        guard tail.count >= StoredZip.endRecordSize else { return nil }
        for position in stride(from: tail.count - StoredZip.endRecordSize, through: 0, by: -1)
        where ByteCursor.uint32(tail, at: position) == StoredZip.endRecordSignature {
            if let commentLength = ByteCursor.uint16(tail, at: position + 20),
                position + StoredZip.endRecordSize + Int(commentLength) == tail.count
            {
                return position
            }
        }
        return nil
    }

    /// The zip64 end record, if a zip64 locator sits right before the end record.
    private static func zip64EndRecord(
        in fd: Int32, endOffset: UInt64, path: String
    ) throws -> (
        record: StoredZipEndRecord, this: UInt64, directory: UInt64, entriesHere: UInt64, offset: UInt64
    )? {
        let locatorSize = UInt64(StoredZip.zip64LocatorSize)
        guard endOffset >= locatorSize else { return nil }
        let locatorOffset = endOffset - locatorSize
        var locator = ByteCursor(
            try POSIXFile.read(fd, count: StoredZip.zip64LocatorSize, at: locatorOffset, path: path))
        do {
            guard try locator.uint32() == StoredZip.zip64LocatorSignature else { return nil }
            let recordDisk = try locator.uint32()
            let recordOffset = try locator.uint64()
            let diskCount = try locator.uint32()
            guard recordDisk == 0, diskCount <= 1 else {
                throw ArchiveError(.unsupported, "split (multi-disk) zip archives are not supported", path: path)
            }
            guard recordOffset <= locatorOffset, locatorOffset - recordOffset >= UInt64(StoredZip.zip64EndRecordSize)
            else {
                throw ArchiveError(.malformed, "the zip64 locator points outside the file", path: path)
            }
            var cursor = ByteCursor(
                try POSIXFile.read(fd, count: StoredZip.zip64EndRecordSize, at: recordOffset, path: path))
            guard try cursor.uint32() == StoredZip.zip64EndRecordSignature else {
                throw ArchiveError(.malformed, "no zip64 end record where the zip64 locator points", path: path)
            }
            let remainingSize = try cursor.uint64()
            // Version made by and version needed are not needed to read a stored zip.
            try cursor.skip(4)
            let this = UInt64(try cursor.uint32())
            let directory = UInt64(try cursor.uint32())
            let entriesHere = try cursor.uint64()
            let entryCount = try cursor.uint64()
            let size = try cursor.uint64()
            let record = StoredZipEndRecord(
                entryCount: entryCount, centralDirectoryOffset: try cursor.uint64(), centralDirectorySize: size)
            guard remainingSize == locatorOffset - recordOffset - 12 else {
                throw ArchiveError(.malformed, "the zip64 end record's size disagrees with its position", path: path)
            }
            return (record, this, directory, entriesHere, recordOffset)
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError(.truncated, "the zip64 end record is cut short", path: path)
        }
    }
}
