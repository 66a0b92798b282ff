import Foundation

/// The head's text as its top-level members, and the new document made of them and of
/// replaced members.
package struct Splicer {
    package let text: UnsafeRawBufferPointer
    package let members: [(key: String, value: Range<Int>)]

    package func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: text[range]) }

    /// A piece of a member's new value: bytes of the head, or new bytes.
    package enum Piece {
        case head(Range<Int>)
        case bytes([UInt8])
    }

    /// The canonical text of the document of the head's members, with `replacing` in
    /// place of (or added to) them and `removing` left out: members in the order of their
    /// names' UTF-8 bytes, each value as its bytes, which are canonical for the first
    /// level of indentation. Measured first, then written once into one buffer of its
    /// size: a 40 MB document is neither grown nor copied again on its way out.
    package func document(replacing: [String: [Piece]], removing: Set<String>) -> Data {
        var keys = members.map(\.key).filter { !removing.contains($0) }
        keys += replacing.keys.filter { key in !members.contains { $0.key == key } }
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let ranges = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        var pieces: [Piece] = [.bytes([UInt8(ascii: "{")])]
        for (offset, key) in keys.enumerated() {
            var name: [UInt8] = Array((offset == 0 ? "\n  " : ",\n  ").utf8)
            JSONText.appendString(key, to: &name)
            name.append(contentsOf: " : ".utf8)
            pieces.append(.bytes(name))
            pieces += replacing[key] ?? [.head(ranges[key]!)]
        }
        pieces.append(.bytes(Array((keys.isEmpty ? "}\n" : "\n}\n").utf8)))
        let count = pieces.reduce(0) { total, piece in
            switch piece {
            case .head(let range): total + range.count
            case .bytes(let bytes): total + bytes.count
            }
        }
        var output = LargeBuffer.zeroed(count: count)
        output.withUnsafeMutableBytes { output in
            var offset = 0
            for piece in pieces {
                switch piece {
                case .head(let range):
                    output.baseAddress!.advanced(by: offset).copyMemory(
                        from: text.baseAddress!.advanced(by: range.lowerBound), byteCount: range.count)
                    offset += range.count
                case .bytes(let bytes):
                    bytes.withUnsafeBytes {
                        output.baseAddress!.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
                    }
                    offset += bytes.count
                }
            }
        }
        return output
    }
}
