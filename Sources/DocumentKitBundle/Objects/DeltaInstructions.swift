import DocumentKitCore
import Foundation

/// A delta program (FORMAT.md §4.1) read into its instructions, each placed in the
/// target. Programs of a delta chain fold into one (``folded(_:)``), so that an old
/// version reached through many deltas is built by copying its bytes once, not once per
/// link: folding costs what the programs hold, not what the document holds.
package struct DeltaInstructions {
    /// One instruction: `length` bytes of the target from `start`, copied from the base
    /// at `offset`, or (not `fromBase`) from `literals` at `offset`. Plain values, so that
    /// folding long chains retains nothing per piece.
    package struct Piece {
        package var start: Int
        package var length: Int
        package var offset: Int
        package var fromBase: Bool
    }

    /// The length of the base the program reads.
    package let baseSize: Int
    /// The length of the target it builds.
    package let targetSize: Int
    /// The instructions in target order, back to back from 0 to `targetSize`.
    package private(set) var pieces: [Piece] = []
    /// The ADD bytes of the programs folded in.
    var literals: [UInt8] = []

    init(baseSize: Int, targetSize: Int) {
        self.baseSize = baseSize
        self.targetSize = targetSize
    }

    /// Appends `piece`, joining it to the last one when both take adjacent bytes of the
    /// same source.
    mutating func append(_ piece: Piece) {
        if let last = pieces.last, last.fromBase == piece.fromBase, last.offset + last.length == piece.offset {
            pieces[pieces.count - 1].length += piece.length
            return
        }
        pieces.append(piece)
    }

    /// One program doing what `chain` does in turn: each program's base is what the one
    /// before it builds, the first one's is the base of the result.
    ///
    /// A fold costs what the two programs hold, and its result holds about as much as both,
    /// so the order matters: the neighbours holding the fewest pieces together are folded
    /// first, as an optimal merge would. A chain of k one-change programs folds in
    /// k log k steps, not k²; a format-3 chain (FORMAT.md §12.3), whose first links span
    /// thousands of saves and whose last span one, folds its small links together before
    /// copying the large ones, instead of copying them once per level of a pairwise fold.
    package static func folded(_ chain: [DeltaInstructions]) -> DeltaInstructions {
        precondition(!chain.isEmpty, "a chain has a program")
        var programs = chain
        while programs.count > 1 {
            var cheapest = 0
            for index in 1..<(programs.count - 1)
            where
                programs[index].pieces.count + programs[index + 1].pieces.count
                < programs[cheapest].pieces.count + programs[cheapest + 1].pieces.count
            {
                cheapest = index
            }
            programs[cheapest] = programs[cheapest + 1].applied(after: programs[cheapest])
            programs.remove(at: cheapest + 1)
        }
        return programs[0]
    }

    /// The program that builds this program's target from `earlier`'s base: this one run
    /// on what `earlier` builds, without building it.
    private func applied(after earlier: DeltaInstructions) -> DeltaInstructions {
        precondition(earlier.targetSize == baseSize, "a program folds onto the one that builds its base")
        var folded = DeltaInstructions(baseSize: earlier.baseSize, targetSize: targetSize)
        folded.literals = earlier.literals + literals
        let shift = earlier.literals.count
        // Each piece of either program ends at most one piece of the result.
        folded.pieces.reserveCapacity(pieces.count + earlier.pieces.count)
        // Where the last COPY ended in `earlier`: the next one mostly starts there.
        var next = 0
        for piece in pieces {
            guard piece.fromBase else {
                folded.append(
                    Piece(start: piece.start, length: piece.length, offset: piece.offset + shift, fromBase: false))
                continue
            }
            // The earlier pieces that built bytes offset ..< offset + length of this base.
            var index = earlier.pieceIndex(containing: piece.offset, near: next)
            var from = piece.offset
            let end = piece.offset + piece.length
            while from < end {
                let covering = earlier.pieces[index]
                let length = min(covering.start + covering.length, end) - from
                folded.append(
                    Piece(
                        start: piece.start + (from - piece.offset), length: length,
                        offset: covering.offset + (from - covering.start), fromBase: covering.fromBase))
                from += length
                index += 1
            }
            next = index
        }
        return folded
    }

    /// The index of the piece that builds target byte `offset` (which is below `targetSize`),
    /// looked for first at `guess` and the piece after it: a chain's programs copy their
    /// bases mostly in order, and a binary search for each of a fold's 100,000 pieces
    /// took most of the time of reading a version 60 links from the document stored whole.
    private func pieceIndex(containing offset: Int, near guess: Int) -> Int {
        for index in (guess - 1)...(guess + 1) where index >= 0 && index < pieces.count {
            if pieces[index].start <= offset, index + 1 == pieces.count || offset < pieces[index + 1].start {
                return index
            }
        }
        var low = 0
        var high = pieces.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if pieces[middle].start <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The program (FORMAT.md §4.1) that does what these instructions do: a COPY for each
    /// piece from the base, an ADD for each from the literals. How a folded chain is stored
    /// as one delta.
    package var program: Data {
        var program = ObjectDelta.magic
        ObjectDelta.appendVarint(baseSize, to: &program)
        ObjectDelta.appendVarint(targetSize, to: &program)
        for piece in pieces {
            if piece.fromBase {
                program.append(ObjectDelta.Opcode.copy.rawValue)
                ObjectDelta.appendVarint(piece.offset, to: &program)
                ObjectDelta.appendVarint(piece.length, to: &program)
            } else {
                program.append(ObjectDelta.Opcode.add.rawValue)
                ObjectDelta.appendVarint(piece.length, to: &program)
                program += literals[piece.offset..<(piece.offset + piece.length)]
            }
        }
        return Data(program)
    }

    /// Builds the target from `base`, which must be `baseSize` bytes; the output is
    /// allocated once, at `targetSize`.
    package func apply(to base: Data) throws -> Data {
        guard base.count == baseSize else {
            throw DocumentKitError(
                .malformedInput,
                "invalid delta program: the program is for a base of \(baseSize) bytes; the base has \(base.count)")
        }
        WorkMeter.count(.rebuiltBytes, targetSize)
        // Not zeroed first (as `Data(count:)` would): the pieces cover the target, back
        // to back, so every byte is written once.
        let output = UnsafeMutableRawPointer.allocate(byteCount: max(targetSize, 1), alignment: 16)
        base.withUnsafeBytes { base in
            literals.withUnsafeBytes { literals in
                for piece in pieces {
                    let source = piece.fromBase ? base : literals
                    output.advanced(by: piece.start)
                        .copyMemory(
                            from: source.baseAddress.unsafelyUnwrapped.advanced(by: piece.offset),
                            byteCount: piece.length)
                }
            }
        }
        return Data(bytesNoCopy: output, count: targetSize, deallocator: .custom { bytes, _ in bytes.deallocate() })
    }
}
