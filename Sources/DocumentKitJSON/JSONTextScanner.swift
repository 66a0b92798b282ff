import DocumentKitCore
import Foundation

/// Walks the members or elements of one object or array in JSON text that
/// `JSONParser.skipDocument()` has checked, returning each value as a byte range.
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
        switch text[start] {
        case UInt8(ascii: "\""):
            skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while true {
                let byte = text[parser.index]
                if byte == UInt8(ascii: "\"") {
                    skipString()
                    continue
                }
                parser.index += 1
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { break }
                }
            }
        default:
            // A number or a literal: it ends at the first delimiter.
            while parser.index < text.count {
                switch text[parser.index] {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: return start..<parser.index
                default: parser.index += 1
                }
            }
        }
        return start..<parser.index
    }

    /// Moves past the string whose opening quote is here: to the first quote after it
    /// that is not escaped, which is one preceded by an even number of backslashes.
    private mutating func skipString() {
        let base = text.baseAddress!
        var from = parser.index + 1
        while true {
            let quote = memchr(base + from, Int32(UInt8(ascii: "\"")), text.count - from)!
            let position = base.distance(to: UnsafeRawPointer(quote))
            var backslashes = 0
            while text[position - 1 - backslashes] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 {
                parser.index = position + 1
                return
            }
            from = position + 1
        }
    }
}
