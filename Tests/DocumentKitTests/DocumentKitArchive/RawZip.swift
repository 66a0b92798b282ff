import Foundation

@testable import DocumentKit

/// Builds zip files with arbitrary, even hostile, contents, for reader tests: names the
/// writer would refuse, wrong CRCs, compressed-method flags, disagreeing headers.
struct RawZip {
    struct Entry {
        var name: [UInt8]
        var data: [UInt8]
        var flags: UInt16 = StoredZip.flags
        var method: UInt16 = 0
        /// The CRC-32 written in both headers; `nil` for the data's real one.
        var crc32: UInt32?
        /// What the local header says instead, where it should disagree.
        var localName: [UInt8]?
        var localCRC32: UInt32?
        var localSize: UInt32?
        /// A central directory offset instead of the real one.
        var centralOffset: UInt32?

        init(_ name: String, _ data: String = "") {
            self.init(bytes: Array(name.utf8), Array(data.utf8))
        }

        init(bytes name: [UInt8], _ data: [UInt8]) {
            self.name = name
            self.data = data
        }
    }

    static func build(_ entries: [Entry]) -> Data {
        var file: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let offset = UInt64(file.count)
            let crc = entry.crc32 ?? entry.data.withUnsafeBytes { CRC32.checksum($0) }
            var local = StoredZip.localHeader(
                name: entry.localName ?? entry.name, size: UInt64(entry.data.count), crc32: entry.localCRC32 ?? crc,
                zip64Sizes: false, versionNeeded: 10)
            local.replaceSubrange(6..<10, with: le(entry.flags) + le(entry.method))
            if let size = entry.localSize { local.storeLittleEndian(size, at: 22) }
            file += local + entry.data
            var header = StoredZip.centralHeader(
                name: entry.name, size: UInt64(entry.data.count), crc32: crc, localHeaderOffset: offset,
                zip64Sizes: false, zip64Offset: false, versionNeeded: 10)
            header.replaceSubrange(8..<12, with: le(entry.flags) + le(entry.method))
            if let centralOffset = entry.centralOffset { header.storeLittleEndian(centralOffset, at: 42) }
            central += header
        }
        let end = StoredZip.endRecords(
            entryCount: entries.count, centralDirectoryOffset: UInt64(file.count),
            centralDirectorySize: UInt64(central.count), forceZip64: false)
        return Data(file + central + end)
    }

    private static func le(_ value: UInt16) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(value)
        return bytes
    }
}
