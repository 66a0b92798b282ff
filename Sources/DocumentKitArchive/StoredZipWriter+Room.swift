import DocumentKitCore
import Foundation

extension StoredZipWriter {
    /// Adds an entry holding `data` whose local header starts at `slot`'s first byte
    /// instead of where the append is (``StoredZipSlot``), with a room entry after it to
    /// the slot's end when it is shorter. The central directory lists it there.
    ///
    /// Only an appending writer may, and only over a slot that ``StoredZipSlot/isReusable(_:in:)``
    /// accepted and ``StoredZipSlot/fits(name:size:in:)`` fits: the slot's bytes belong to
    /// no entry of the zip being appended to, so the old zip stays whole while they change.
    /// They are written last, in ``finish(beforeEndRecords:)``, once everything appended
    /// is written and the end records' space is allocated: a write the file system refuses
    /// (a full disk, a file-size limit) then fails before a byte of the slot changed.
    package func addEntry(name: String, data: Data, inSlot slot: Range<UInt64>) throws {
        try checks.admit(name)
        WorkMeter.count(.storedBytes, data.count)
        let nameBytes = Array(name.utf8)
        try checks.failing {
            let size = UInt64(data.count)
            guard StoredZipSlot.fits(name: name, size: size, in: slot), slot.upperBound <= output.offset else {
                throw ArchiveError(
                    .malformed, "does not fit the \(slot.count) bytes it was to be written into", path: path,
                    entry: name)
            }
            let crc32 = CRC32.checksum(data)
            let header = StoredZip.localHeader(
                name: nameBytes, size: size, crc32: crc32, zip64Sizes: forcesZip64 || StoredZip.needsZip64(size),
                versionNeeded: versionNeeded(size: size, offset: slot.lowerBound))
            slotWrites.append(SlotWrite(slot: slot, header: header, data: data))
            addCentralHeader(name: nameBytes, size: size, crc32: crc32, headerOffset: slot.lowerBound)
        }
    }

    /// Writes the entries added into slots (``addEntry(name:data:inSlot:)``), each with
    /// the room after it.
    func writeSlots() throws {
        let fd = output.fileDescriptor
        for write in slotWrites {
            let offset = write.slot.lowerBound
            let dataOffset = offset + UInt64(write.header.count)
            try write.data.withUnsafeBytes { bytes in try POSIXFile.write(fd, bytes, at: dataOffset, path: path) }
            let end = dataOffset + UInt64(write.data.count)
            if end < write.slot.upperBound { try writeRoom(end..<write.slot.upperBound) }
            try write.header.withUnsafeBytes { try POSIXFile.write(fd, $0, at: offset, path: path) }
            ProgressMeter.advance(.written, by: write.data.count)
        }
        slotWrites = []
    }

    /// Allocates `count` bytes at the end of the output, where the end records go, so that
    /// writing them cannot fail for want of space once the slots are written.
    func reserveEnd(_ count: Int) throws {
        try POSIXFile.allocate(output.fileDescriptor, at: output.offset, count: count, path: path)
    }

    /// Appends a room entry of `size` bytes in all (header and zeros) where the append is:
    /// room after the entry just added, for a later save to write a larger one into. No
    /// central directory record names it.
    package func addRoom(size: UInt64) throws {
        try checks.checkOpen()
        try checks.failing {
            let start = output.offset
            guard let header = Self.roomHeader(start..<start + size) else {
                throw ArchiveError(.malformed, "room of \(size) bytes has no space for its header", path: path)
            }
            try output.append(header)
            var left = size - UInt64(header.count)
            try Self.zeros.withUnsafeBytes { zeros in
                while left > 0 {
                    let count = Int(min(left, UInt64(zeros.count)))
                    try output.append(UnsafeRawBufferPointer(rebasing: zeros[0..<count]))
                    left -= UInt64(count)
                }
            }
        }
    }

    /// Writes a room entry of zeros over `region`, a stretch no entry of the zip uses.
    private func writeRoom(_ region: Range<UInt64>) throws {
        guard let header = Self.roomHeader(region) else {
            throw ArchiveError(.malformed, "room of \(region.count) bytes has no space for its header", path: path)
        }
        let fd = output.fileDescriptor
        try header.withUnsafeBytes { try POSIXFile.write(fd, $0, at: region.lowerBound, path: path) }
        var offset = region.lowerBound + UInt64(header.count)
        try Self.zeros.withUnsafeBytes { zeros in
            while offset < region.upperBound {
                let count = Int(min(region.upperBound - offset, UInt64(zeros.count)))
                try POSIXFile.write(fd, UnsafeRawBufferPointer(rebasing: zeros[0..<count]), at: offset, path: path)
                offset += UInt64(count)
            }
        }
    }

    /// The local header of a room entry of zeros taking `region`, with their CRC-32.
    private static func roomHeader(_ region: Range<UInt64>) -> [UInt8]? {
        let regionSize = region.upperBound - region.lowerBound
        guard let dataSize = StoredZip.coveredDataSize(nameLength: StoredZip.roomName.count, regionSize: regionSize)
        else { return nil }
        var crc = CRC32()
        var left = dataSize
        zeros.withUnsafeBytes { zeros in
            while left > 0 {
                let count = Int(min(left, UInt64(zeros.count)))
                crc.update(UnsafeRawBufferPointer(rebasing: zeros[0..<count]))
                left -= UInt64(count)
            }
        }
        return StoredZip.coveringHeader(
            name: StoredZip.roomName, regionSize: regionSize, at: region.lowerBound, crc32: crc.value)
    }

    private static let zeros = [UInt8](repeating: 0, count: 1 << 16)
}
