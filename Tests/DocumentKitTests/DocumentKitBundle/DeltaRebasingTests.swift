import Foundation
import Testing

@testable import DocumentKit

/// A delta program moved onto a later document (`DeltaInstructions.rebased(onto:)`): what
/// a pull checking a 16th place's document relies on (FORMAT.md §12.3).
@Suite struct DeltaRebasingTests {
    /// A base of numbered lines, each with 48 hexadecimal digits of its own (from a fixed
    /// linear congruential sequence), so that the encoder copies each from where it is.
    private func lines(_ count: Int, replacing replaced: [Int: String] = [:]) -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let text = (0..<count).map { index -> String in
            let digits = (0..<3).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return String(state, radix: 16)
            }
            return replaced[index] ?? "line \(index): \(digits.joined())\n"
        }
        return Data(text.joined().utf8)
    }

    private func instructions(_ target: Data, from base: Data) throws -> DeltaInstructions {
        try DeltaInstructions(
            program: ObjectDelta.encode(target: target, base: base), baseSize: base.count, expectedSize: target.count)
    }

    /// Base B; H changes line 10; T changes line 500. T's program, moved onto H, builds T
    /// from H: the bytes it copies from B are where H holds them.
    @Test func aProgramMovedOntoALaterDocumentBuildsTheSameTarget() throws {
        let base = lines(1_000)
        let later = lines(1_000, replacing: [10: "line ten, renamed in the later document\n"])
        let target = lines(1_000, replacing: [10: "line ten, renamed again\n", 500: "line 500, renamed\n"])
        let rebased = try #require(
            try instructions(target, from: base).rebased(onto: try instructions(later, from: base)))
        #expect(rebased.baseSize == later.count && rebased.targetSize == target.count)
        #expect(try rebased.apply(to: later) == target)
        // As a stored program too.
        #expect(try ObjectDelta.apply(rebased.program, to: later, expectedSize: target.count) == target)
    }

    /// Through a fold of several links, and with the later document's lines moved about.
    @Test func throughAFoldedChainWithBytesMoved() throws {
        var documents = [lines(300)]
        for step in 1...15 {
            var text = String(decoding: documents.last!, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false)
            text[step * 7] = "renamed at step \(step)"
            if step == 8 { text.swapAt(100, 200) }
            documents.append(Data(text.joined(separator: "\n").utf8))
        }
        let links = try (1..<documents.count).map { try instructions(documents[$0], from: documents[$0 - 1]) }
        let forward = DeltaInstructions.folded(links)
        // The 16th place: the 15th document with one more change.
        var last = String(decoding: documents.last!, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
        last[250] = "the 16th place's change"
        let target = Data(last.joined(separator: "\n").utf8)
        let program = try instructions(target, from: documents[0])
        let rebased = try #require(program.rebased(onto: forward))
        #expect(try rebased.apply(to: documents.last!) == target)
    }

    /// A program that copies bytes the later document no longer holds cannot be moved: the
    /// caller rebuilds the base instead.
    @Test func bytesTheLaterDocumentDroppedRefuseTheMove() throws {
        let base = lines(1_000)
        let later = lines(1_000, replacing: [10: "line ten, renamed in the later document\n"])
        let target = lines(1_000, replacing: [500: "line 500, renamed\n"])  // keeps line 10 of the base
        #expect(try instructions(target, from: base).rebased(onto: try instructions(later, from: base)) == nil)
        // And a forward program of another base length.
        #expect(try instructions(target, from: base).rebased(onto: try instructions(later, from: later)) == nil)
    }
}
