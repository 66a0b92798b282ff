import Foundation
import Testing

@testable import DocumentKit

@Suite struct ZstdCodecTests {
    static let json = Data(
        (0..<20_000).map { "{\"id\": \($0), \"title\": \"Task \($0)\", \"done\": \($0 % 3 == 0)}\n" }.joined().utf8)

    @Test(arguments: [0, 1, 100, 65_536, 1_000_003])
    func roundTrips(size: Int) throws {
        var generator = SeededRandom(seed: 0xD0C5)
        let random = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        for data in [random, Self.json.prefix(size)] {
            let frame = try ZstdCodec.compress(data)
            #expect(Array(frame.prefix(4)) == [0x28, 0xB5, 0x2F, 0xFD])  // the zstd frame magic number
            #expect(try ZstdCodec.decompress(frame, expectedSize: data.count) == data)
        }
    }

    /// Words in a pseudo-random order: text with a realistic amount of redundancy.
    static let prose: Data = {
        let words = ["bundle", "version", "object", "the", "a", "saved", "digest", "task", "project", "of", "and", "to"]
        var state: UInt64 = 42
        var text = ""
        for _ in 0..<100_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text += words[Int(state >> 33) % words.count] + " "
        }
        return Data(text.utf8)
    }()

    @Test func compressesTextAndHonoursTheLevel() throws {
        let fast = try ZstdCodec.compress(Self.prose, level: 1)
        let small = try ZstdCodec.compress(Self.prose, level: 19)
        #expect(fast.count < Self.prose.count / 2)
        #expect(small.count < fast.count)
        #expect(try ZstdCodec.decompress(small, expectedSize: Self.prose.count) == Self.prose)
        #expect(try ZstdCodec.compress(Self.json).count < Self.json.count / 10)
    }

    @Test(.enabled(if: ExternalTool.zstd.isAvailable, "zstd is not installed"))
    func interoperatesWithTheZstdTool() throws {
        let ours = try ZstdCodec.compress(Self.json)
        let decoded = try ExternalTool.zstd.run(["-d", "-c"], input: ours)
        #expect(decoded.status == 0, "\(decoded.standardError)")
        #expect(decoded.standardOutput == Self.json)
        for level in ["-1", "-19"] {
            let theirs = try ExternalTool.zstd.run([level, "-c"], input: Self.json)
            #expect(theirs.status == 0, "\(theirs.standardError)")
            #expect(try ZstdCodec.decompress(theirs.standardOutput, expectedSize: Self.json.count) == Self.json)
        }
    }

    @Test func refusesOutputOfTheWrongSize() throws {
        let frame = try ZstdCodec.compress(Self.json)
        expectArchiveError(.limitExceeded) { _ = try ZstdCodec.decompress(frame, expectedSize: Self.json.count - 1) }
        expectArchiveError(.malformed) { _ = try ZstdCodec.decompress(frame, expectedSize: Self.json.count + 1) }
        expectArchiveError(.limitExceeded) { _ = try ZstdCodec.decompress(frame, expectedSize: 0) }
        expectArchiveError(.malformed) { _ = try ZstdCodec.decompress(frame, expectedSize: -1) }
    }

    @Test func refusesWhatIsNotAZstdFrame() throws {
        expectArchiveError(.malformed) { _ = try ZstdCodec.decompress(Data(), expectedSize: 0) }
        expectArchiveError(.malformed) {
            _ = try ZstdCodec.decompress(Data("plain text, not zstd".utf8), expectedSize: 20)
        }
        let frame = try ZstdCodec.compress(Self.json)
        let cut = frame.prefix(frame.count / 2)
        expectArchiveError(.truncated) { _ = try ZstdCodec.decompress(cut, expectedSize: Self.json.count) }
        var damaged = frame
        damaged[damaged.count / 2] ^= 0xFF
        // The frames carry no content checksum (libarchive 3.6.2 cannot ask for one), so a
        // flipped literal byte may decode without error: the bytes then differ, which the
        // bundle's SHA-256 digests catch. Structural damage is refused.
        let result = Result { () throws in
            try ZstdCodec.decompress(damaged, expectedSize: Self.json.count)
        }
        if case .success(let decoded) = result { #expect(decoded != Self.json) }
        var header = frame
        header[4] = 0xFF  // frame header descriptor: reserved bit set
        expectArchiveError(.malformed) { _ = try ZstdCodec.decompress(header, expectedSize: Self.json.count) }
    }

    /// Decoded in blocks, as a push streams a compressed document: the same bytes, no
    /// block larger than asked, and the same refusals as a whole decode.
    @Test func decodesInBlocksAndRefusesAsAWholeDecodeDoes() throws {
        let frame = try ZstdCodec.compress(Self.json)
        var decoded = Data()
        var largest = 0
        try ZstdCodec.decompress(frame, expectedSize: Self.json.count, blockSize: 10_000) { block in
            decoded.append(contentsOf: block)
            largest = max(largest, block.count)
        }
        #expect(decoded == Self.json && largest <= 10_000 && largest > 0)
        var none = 0
        try ZstdCodec.decompress(try ZstdCodec.compress(Data()), expectedSize: 0) { none += $0.count }
        #expect(none == 0)
        let errors: [(Int, ArchiveError.Kind)] = [
            (Self.json.count - 1, .limitExceeded), (Self.json.count + 1, .malformed), (-1, .limitExceeded)
        ]
        for (size, kind) in errors {
            #expect(throws: ArchiveError.self) { try ZstdCodec.decompress(frame, expectedSize: size) { _ in } }
            do { try ZstdCodec.decompress(frame, expectedSize: size) { _ in } } catch let error as ArchiveError {
                #expect(error.kind == kind, "\(size)")
            }
        }
        let bomb = try ZstdCodec.compress(Data(count: 64 << 20))
        do {
            try ZstdCodec.decompress(bomb, expectedSize: 64 << 20) { _ in
                Issue.record("a bomb is refused before any byte")
            }
        } catch let error as ArchiveError {
            #expect(error.kind == .limitExceeded)
        }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try ZstdCodec.decompress(frame, expectedSize: Self.json.count) { _ in throw Stop() }
        }
    }

    @Test func refusesImplausibleSizesBeforeAllocating() throws {
        // A 30-byte frame may not claim to hold 10 GB: refused by the ratio, with no allocation.
        let frame = try ZstdCodec.compress(Data(count: 1000))
        expectArchiveError(.limitExceeded) { _ = try ZstdCodec.decompress(frame, expectedSize: 10_000_000_000) }
        expectArchiveError(.limitExceeded) {
            _ = try ZstdCodec.decompress(frame, expectedSize: 1000, limits: ArchiveLimits(maxEntryBytes: 999))
        }
        // A bomb: 64 MiB of zeros in a few kilobytes, expected to be 64 MiB, refused by the ratio.
        let bomb = try ZstdCodec.compress(Data(count: 64 << 20))
        expectArchiveError(.limitExceeded) { _ = try ZstdCodec.decompress(bomb, expectedSize: 64 << 20) }
        #expect(
            try ZstdCodec.decompress(bomb, expectedSize: 64 << 20, limits: ArchiveLimits(maxExpansionRatio: 100_000))
                .count == 64 << 20)
    }
}
