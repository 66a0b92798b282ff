import Foundation

@testable import DocumentKit

/// Sizes and checksums for archives with entries of 4 GiB and more.
enum Zip64Fixtures {
    /// The size of the big entry: past 4 GiB, so both its size and everything after it need zip64.
    static let bigSize: UInt64 = (1 << 32) + 100 << 20

    /// The CRC-32 of `count` zero bytes, computed without reading them: a zero byte is a
    /// linear map of the CRC register, and its `count`-th power is found by squaring
    /// (the method of zlib's `crc32_combine`).
    static func crc32OfZeros(_ count: UInt64) -> UInt32 {
        func apply(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
            var sum: UInt32 = 0
            var vector = vector
            var index = 0
            while vector != 0 {
                if vector & 1 == 1 { sum ^= matrix[index] }
                vector >>= 1
                index += 1
            }
            return sum
        }
        func square(_ matrix: [UInt32]) -> [UInt32] { matrix.map { apply(matrix, $0) } }
        // One zero bit: shift right, folding in the polynomial when bit 0 falls out.
        var oneBit = [UInt32](repeating: 0, count: 32)
        oneBit[0] = 0xEDB8_8320
        for bit in 1..<32 { oneBit[bit] = 1 << (bit - 1) }
        var power = square(square(square(oneBit)))  // one zero byte
        var register: UInt32 = 0xFFFF_FFFF
        var remaining = count
        while remaining > 0 {
            if remaining & 1 == 1 { register = apply(power, register) }
            power = square(power)
            remaining >>= 1
        }
        return ~register
    }
}
