import DocumentKitCore
import Foundation

/// The CRC-32 of zip, gzip and zlib (ISO-HDLC: reflected polynomial 0xEDB88320, initial
/// value and final XOR 0xFFFFFFFF), computed by zlib's `crc32`.
///
/// Bundles store every entry, so this runs over every byte written or verified. zlib's
/// braided implementation runs at about 4.2 GB/s here, against 2.8 GB/s for the
/// slicing-by-16 tables in Swift this replaced; zlib is linked by libarchive already.
///
/// ```swift
/// var crc = CRC32()
/// buffer.withUnsafeBytes { crc.update($0) }
/// let value = crc.value
/// ```
package struct CRC32: Sendable {
    /// zlib's running value, which is the checksum of the bytes so far.
    package private(set) var value: UInt32 = 0

    /// Starts a checksum over no bytes (whose value is 0).
    package init() {}

    /// Adds `buffer` to the checksum.
    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard var base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var remaining = buffer.count
        // zlib takes a 32-bit length.
        while remaining > 0 {
            let count = min(remaining, Int(UInt32.max))
            value = Zlib.crc32(continuing: value, base, count: UInt32(count))
            base += count
            remaining -= count
        }
    }

    /// The checksum of `data`.
    package static func checksum(_ data: Data) -> UInt32 {
        var crc = CRC32()
        data.withUnsafeBytes { crc.update($0) }
        return crc.value
    }

    /// The checksum of `bytes`.
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
