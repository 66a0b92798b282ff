import Foundation
import Testing

@testable import DocumentKit

@Suite struct CRC32Tests {
    @Test func knownVectors() {
        #expect(CRC32.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Data()) == 0)
        #expect(CRC32().value == 0)
        #expect(CRC32.checksum(Data("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test func incrementalUpdatesMatchOneShot() {
        let data = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        for split in [0, 1, 7, 15, 16, 17, 500, 999, 1000] {
            var crc = CRC32()
            data.prefix(split).withUnsafeBytes { crc.update($0) }
            data.dropFirst(split).withUnsafeBytes { crc.update($0) }
            #expect(crc.value == CRC32.checksum(data), "split at \(split)")
        }
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable, "python3 is not installed"))
    func matchesZlibOnRandomDataOfOddLengths() throws {
        var generator = SeededRandom(seed: 0xD0C5)
        for length in [1, 3, 15, 17, 31, 255, 4097, 65_537, 1_000_003] {
            let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let result = try ExternalTool.python3.run(
                ["-c", "import sys, zlib; print(zlib.crc32(sys.stdin.buffer.read()))"], input: data)
            #expect(result.status == 0, "\(result.standardError)")
            let expected = UInt32(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(expected == CRC32.checksum(data), "length \(length)")
        }
    }

    @Test func unalignedStartsMatch() {
        let data = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 97) })
        for start in 0..<16 {
            var bytewise = CRC32()
            for byte in data.dropFirst(start) { withUnsafeBytes(of: byte) { bytewise.update($0) } }
            #expect(CRC32.checksum(Data(data.dropFirst(start))) == bytewise.value, "start \(start)")
        }
    }
}
