import DocumentKitCore
import Foundation

/// Walks the members or elements of one object or array in JSON text that
/// `JSONWalker<JSONChecker>.checkDocument()` has checked, returning each value as a byte range.
///
/// The text is known to be valid, so skipping a value only has to follow strings and
/// brackets: no grammar, UTF-8 or duplicate checks, and no values built. Strings are
/// crossed with `memchr`, which is what makes a pass over a document cheap.
package struct JSONTextScanner {
    private var parser: JSONParser
    private var text: UnsafeRawBufferPointer { parser.bytes }

    /// A scanner of the container whose `{` or `[` is at `open`.
    package init(text: UnsafeRawBufferPointer, after open: Int) {
        parser = JSONParser(bytes: text, depthLimit: Int.max)
        parser.index = open + 1
    }

    /// The next element's bytes, or `nil` after the last one.
    package mutating func nextElement() -> Range<Int>? {
        guard startNext() else { return nil }
        let element = skipValue()
        WorkMeter.count(.jsonBytes, element.count)
        return element
    }

    /// The next member's name and value bytes, or `nil` after the last one.
    package mutating func nextMember() throws -> (key: String, value: Range<Int>)? {
        guard startNext() else { return nil }
        let key = try parser.parseString()
        parser.skipWhitespace()
        parser.index += 1  // the colon
        parser.skipWhitespace()
        let value = skipValue()
        WorkMeter.count(.jsonBytes, value.count)
        return (key, value)
    }

    /// Moves to the start of the next member or element; false at the closing bracket.
    private mutating func startNext() -> Bool {
        parser.skipWhitespace()
        if parser.current == UInt8(ascii: ",") {
            parser.index += 1
            parser.skipWhitespace()
        }
        let byte = text[parser.index]
        return byte != UInt8(ascii: "]") && byte != UInt8(ascii: "}")
    }

    /// Moves past the value that starts here, returning its bytes.
    private mutating func skipValue() -> Range<Int> {
        let start = parser.index
        // The text was checked: every value ends before it does.
        parser.index = Self.endOfValue(in: text, at: start)!
        return start..<parser.index
    }

    /// Where the value that starts at `start` ends, following only strings and brackets:
    /// the one skim of JSON text that trusts its grammar, for text that was checked and
    /// for a manifest's scan (`ManifestScan`), which checks what it decodes afterwards.
    /// `nil` when the text ends first; it never reads outside `text`.
    package static func endOfValue(in text: UnsafeRawBufferPointer, at start: Int) -> Int? {
        guard start < text.count else { return nil }
        switch text[start] {
        case UInt8(ascii: "\""):
            return endOfString(in: text, at: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < text.count {
                switch text[index] {
                case UInt8(ascii: "\""):
                    guard let end = endOfString(in: text, at: index) else { return nil }
                    index = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return nil
        default:
            // A number or a literal: it ends at the first delimiter.
            var index = start
            while index < text.count {
                switch text[index] {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return index
        }
    }

    /// Where the string whose opening quote is at `quote` ends (after its closing quote):
    /// at the first quote after it that is not escaped, which is one preceded by an even
    /// number of backslashes. `nil` when the text ends first.
    private static func endOfString(in text: UnsafeRawBufferPointer, at quote: Int) -> Int? {
        let base = text.baseAddress!
        var from = quote + 1
        while from < text.count, let found = memchr(base + from, Int32(UInt8(ascii: "\"")), text.count - from) {
            let position = base.distance(to: UnsafeRawPointer(found))
            var backslashes = 0
            while position - 1 - backslashes > quote, text[position - 1 - backslashes] == UInt8(ascii: "\\") {
                backslashes += 1
            }
            if backslashes % 2 == 0 { return position + 1 }
            from = position + 1
        }
        return nil
    }
}
