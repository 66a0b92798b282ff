import Foundation

extension DeltaInstructions {
    /// This program moved onto a later document: given `forward`, a program from this
    /// program's base to a document `H`, the program that builds this program's target
    /// from `H`, taking each byte this program copies from the base where `forward`
    /// copied that byte into `H`. `nil` when this program copies a byte of the base that
    /// `forward` left out of `H` (a byte `H` no longer holds).
    ///
    /// Why: a format-3 document at a 16th place is a delta against the document 16 places
    /// back (FORMAT.md §12.3), which only its chain rebuilds, from the object stored whole.
    /// A pull checking such a document holds the head's document whole and the 15 small
    /// links from that old document to it; moved onto the head's, the new delta is checked
    /// without rebuilding the old document. Costs what the two programs hold.
    package func rebased(onto forward: DeltaInstructions) -> DeltaInstructions? {
        guard forward.baseSize == baseSize else { return nil }
        let covering = Self.coverage(of: forward)
        var rebased = DeltaInstructions(baseSize: forward.targetSize, targetSize: targetSize)
        rebased.literals = literals
        for piece in pieces {
            guard piece.fromBase else {
                rebased.append(piece)
                continue
            }
            var from = piece.offset
            let end = piece.offset + piece.length
            while from < end {
                // The span of `forward` holding base byte `from`: the last starting at or
                // before it, which must reach past it.
                guard let index = Self.lastSpan(in: covering, startingAtOrBefore: from),
                    covering[index].baseEnd > from
                else { return nil }
                let span = covering[index]
                let length = min(span.baseEnd, end) - from
                rebased.append(
                    Piece(
                        start: piece.start + (from - piece.offset), length: length,
                        offset: span.target + (from - span.base), fromBase: true))
                from += length
            }
        }
        return rebased
    }

    /// A run of base bytes `base ..< baseEnd` that a program copies to its target at
    /// `target`.
    private struct Span {
        var base: Int
        var baseEnd: Int
        var target: Int
    }

    /// The base bytes `program` copies, as spans in base order that do not overlap (where
    /// two pieces copy the same bytes, the first in base order keeps them).
    private static func coverage(of program: DeltaInstructions) -> [Span] {
        let copied = program.pieces.filter(\.fromBase).sorted { $0.offset < $1.offset }
        var spans: [Span] = []
        spans.reserveCapacity(copied.count)
        for piece in copied {
            var span = Span(base: piece.offset, baseEnd: piece.offset + piece.length, target: piece.start)
            if let last = spans.last, last.baseEnd > span.base {
                guard last.baseEnd < span.baseEnd else { continue }
                span.target += last.baseEnd - span.base
                span.base = last.baseEnd
            }
            spans.append(span)
        }
        return spans
    }

    /// The index of the last span starting at or before base byte `offset`, if any.
    private static func lastSpan(in spans: [Span], startingAtOrBefore offset: Int) -> Int? {
        var low = 0
        var high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].base <= offset { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
