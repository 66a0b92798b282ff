import DocumentKitCore
import Foundation

/// Writes a zip file whose entries are all stored (method 0), byte for byte the same on
/// every machine: the container of DocumentKit bundles.
///
/// libarchive's zip writer cannot do this (it adds time and owner extra fields, uses local
/// time, always sets data descriptors and cannot copy an entry raw), so bundles are written
/// here. FORMAT.md §9 specifies every field. In short: no extra fields
/// except zip64 where a size or offset needs it, UTF-8 names, no data descriptors, a fixed
/// 1980-01-01 date, mode 0644, entries in the order they are added.
///
/// ```swift
/// let writer = StoredZipWriter(fileDescriptor: fd, path: path)
/// try writer.addEntry(name: "mimetype", data: Data("application/vnd.example+zip".utf8))
/// try writer.addEntry(name: "big.bin", size: size) { sink in
///     try sink.write(chunk)
/// }
/// try writer.finish()
/// ```
///
/// After any error the writer is unusable and the file is incomplete: discard it.
package final class StoredZipWriter {
    /// The file's path, for error messages.
    package let path: String
    let output: FileOutputBuffer
    /// Writes zip64 fields and end records even where the values would fit in 32 bits;
    /// legal zip, used by tests to exercise zip64 without writing 4 GiB.
    package let forcesZip64: Bool
    private var centralHeaders: [[UInt8]] = []
    let checks: ArchiveWriterChecks
    /// The local header offsets of the entries listed with ``keepEntry(_:)``: after an
    /// append, every other entry of the old zip is superseded.
    package private(set) var keptOffsets: Set<UInt64> = []
    /// Entries to write into slots before the end records (``addEntry(name:data:inSlot:)``).
    var slotWrites: [SlotWrite] = []

    /// An entry written into a slot of the file rather than appended.
    struct SlotWrite {
        var slot: Range<UInt64>
        var header: [UInt8]
        var data: Data
    }

    /// Writes at the start of `fileDescriptor`, a freshly created, empty regular file opened
    /// for writing (`O_RDWR`), with `pwrite`; never closes it.
    ///
    /// - Parameter path: the file's path, used only in error messages.
    package convenience init(fileDescriptor: Int32, path: String) {
        self.init(fileDescriptor: fileDescriptor, path: path, forcesZip64: false)
    }

    /// A writer that, when `forcesZip64`, uses zip64 fields for every entry.
    package init(fileDescriptor: Int32, path: String, forcesZip64: Bool) {
        self.path = path
        self.output = FileOutputBuffer(fileDescriptor: fileDescriptor, path: path)
        self.forcesZip64 = forcesZip64
        self.checks = ArchiveWriterChecks(path: path)
    }

    /// A writer that adds to an existing stored zip in place: new entries and a new
    /// central directory go after byte `offset` (the zip's end), and entries that stay
    /// are listed with ``keepEntry(_:)`` without moving.
    ///
    /// Nothing before `offset` is written, so the old zip stays whole until the new end
    /// record replaces the old one as the file's last bytes; the old central directory,
    /// end record and every entry not kept remain as bytes no entry refers to.
    package init(appendingTo fileDescriptor: Int32, path: String, at offset: UInt64) {
        self.path = path
        self.output = FileOutputBuffer(fileDescriptor: fileDescriptor, path: path, startingAt: offset)
        self.forcesZip64 = false
        self.checks = ArchiveWriterChecks(path: path)
    }

    /// Lists `entry` (an entry of the zip being appended to) in the new central directory
    /// where it is, with its CRC-32 and sizes: its bytes are neither read nor written.
    package func keepEntry(_ entry: StoredZipEntry) throws {
        try checks.admit(entry.name)
        let nameBytes = Array(entry.name.utf8)
        try checks.failing {
            guard entry.dataEnd <= output.offset else {
                throw ArchiveError(
                    .malformed, "a kept entry lies past where the append starts", path: path, entry: entry.name)
            }
            // The local header holds a zip64 extra field exactly when its sizes were too
            // large for it or the writer forced zip64; the central directory must agree.
            let localExtra =
                Int(entry.dataOffset - entry.localHeaderOffset) - StoredZip.localHeaderSize - nameBytes.count
            let zip64Sizes = localExtra > 0
            centralHeaders.append(
                StoredZip.centralHeader(
                    name: nameBytes, size: entry.size, crc32: entry.crc32, localHeaderOffset: entry.localHeaderOffset,
                    zip64Sizes: zip64Sizes, zip64Offset: StoredZip.needsZip64(entry.localHeaderOffset),
                    versionNeeded: zip64Sizes || StoredZip.needsZip64(entry.localHeaderOffset)
                        ? StoredZip.versionNeededZip64 : StoredZip.versionNeededStored))
            keptOffsets.insert(entry.localHeaderOffset)
        }
    }

    /// Adds an entry of exactly `size` bytes, which `body` streams through
    /// ``ArchiveEntrySink/write(_:)-(UnsafeRawBufferPointer)``.
    ///
    /// The local header is written with the sizes first; the CRC-32 is computed while the
    /// data streams and then written into the header, so no data descriptor is needed.
    ///
    /// - Throws: `.unsafeEntry` or `.duplicateEntry` for a bad name; `.limitExceeded` or
    ///   `.truncated` if `body` writes more or fewer than `size` bytes; `.io`; or what
    ///   `body` throws.
    package func addEntry(name: String, size: UInt64, body: (inout ArchiveEntrySink) throws -> Void) throws {
        try checks.admit(name)
        WorkMeter.count(.storedBytes, Int(clamping: size))
        let nameBytes = Array(name.utf8)
        try checks.failing {
            let headerOffset = output.offset
            let zip64Sizes = forcesZip64 || StoredZip.needsZip64(size)
            try output.append(
                StoredZip.localHeader(
                    name: nameBytes, size: size, crc32: 0, zip64Sizes: zip64Sizes,
                    versionNeeded: versionNeeded(size: size, offset: headerOffset)))
            let output = self.output
            var sink = ArchiveEntrySink(declaredSize: size, path: path, entry: name, computesCRC: true) {
                bytes throws in
                try output.append(bytes)
            }
            try body(&sink)
            let crc32 = try sink.finish() ?? 0
            var crcBytes: [UInt8] = []
            crcBytes.appendLittleEndian(crc32)
            try output.overwrite(crcBytes, at: headerOffset + StoredZip.localHeaderCRCOffset)
            addCentralHeader(name: nameBytes, size: size, crc32: crc32, headerOffset: headerOffset)
        }
    }

    /// Adds an entry holding `data`.
    package func addEntry(name: String, data: Data) throws {
        try addEntry(name: name, size: UInt64(data.count)) { sink in try sink.write(data) }
    }

    /// Copies an entry's stored bytes from another stored zip unchanged, optionally under a
    /// new name.
    ///
    /// The CRC-32 is taken from the source's central directory, not recomputed: the bytes
    /// move with `copy_file_range(2)` (falling back to `pread`/`pwrite`), so the cost does
    /// not depend on reading them. The source's local header is checked against its central
    /// directory first.
    package func copyEntry(_ entry: StoredZipEntry, from reader: StoredZipReader, as name: String? = nil) throws {
        try reader.verifyLocalHeader(entry)
        let targetName = name ?? entry.name
        try checks.admit(targetName)
        WorkMeter.count(.storedBytes, Int(clamping: entry.size))
        let nameBytes = Array(targetName.utf8)
        try checks.failing {
            let headerOffset = output.offset
            try output.append(
                StoredZip.localHeader(
                    name: nameBytes, size: entry.size, crc32: entry.crc32,
                    zip64Sizes: forcesZip64 || StoredZip.needsZip64(entry.size),
                    versionNeeded: versionNeeded(size: entry.size, offset: headerOffset)))
            let copied: UInt64
            do {
                copied = try output.appendCopy(
                    from: reader.fileDescriptor, at: entry.dataOffset, sourcePath: reader.path, count: entry.size)
            } catch {
                throw error.addingArchiveContext(entry: entry.name)
            }
            guard copied == entry.size else {
                throw ArchiveError(
                    .truncated, "file ends at byte \(entry.dataOffset + copied), inside the entry's data",
                    path: reader.path, entry: entry.name)
            }
            addCentralHeader(name: nameBytes, size: entry.size, crc32: entry.crc32, headerOffset: headerOffset)
        }
    }

    /// Writes the central directory, the zip64 end records when needed, and the end record,
    /// then flushes. Call once, after the last entry. Does not `fsync`: that is the saver's job.
    ///
    /// - Parameter beforeEndRecords: runs once everything but the end records is written
    ///   out; an in-place append makes those bytes durable here, so that a file ending in
    ///   the new end record never refers to bytes that did not reach the disk.
    package func finish(beforeEndRecords: () throws -> Void = {}) throws {
        try checks.checkOpen()
        try checks.failing {
            let centralDirectoryOffset = output.offset
            for header in centralHeaders { try output.append(header) }
            let centralDirectorySize = output.offset - centralDirectoryOffset
            let endRecords = StoredZip.endRecords(
                entryCount: centralHeaders.count, centralDirectoryOffset: centralDirectoryOffset,
                centralDirectorySize: centralDirectorySize, forceZip64: forcesZip64)
            try output.flush()
            if !slotWrites.isEmpty {
                try reserveEnd(endRecords.count)
                try writeSlots()
            }
            try beforeEndRecords()
            try output.append(endRecords)
            try output.flush()
            checks.markFinished()
        }
    }

    // MARK: - Helpers

    func versionNeeded(size: UInt64, offset: UInt64) -> UInt16 {
        forcesZip64 || StoredZip.needsZip64(size) || StoredZip.needsZip64(offset)
            ? StoredZip.versionNeededZip64 : StoredZip.versionNeededStored
    }

    func addCentralHeader(name: [UInt8], size: UInt64, crc32: UInt32, headerOffset: UInt64) {
        centralHeaders.append(
            StoredZip.centralHeader(
                name: name, size: size, crc32: crc32, localHeaderOffset: headerOffset,
                zip64Sizes: forcesZip64 || StoredZip.needsZip64(size),
                zip64Offset: forcesZip64 || StoredZip.needsZip64(headerOffset),
                versionNeeded: versionNeeded(size: size, offset: headerOffset)))
    }
}
