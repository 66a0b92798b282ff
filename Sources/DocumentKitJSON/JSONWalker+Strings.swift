import DocumentKitCore
import Foundation

extension JSONWalker {
    /// Reads and checks the string whose opening quote is at the current position. The
    /// errors it finds while reading (control characters, escapes, the end of the text)
    /// are reported at the byte where they stand (after an escape, a control character
    /// one byte later), and invalid UTF-8 last, after the closing quote. The runs of raw
    /// bytes between escapes are validated one by one, which is validating the string,
    /// since an escape always decodes to whole characters.
    package mutating func scanString() throws -> JSONStringToken {
        let quote = index
        index += 1
        let start = index
        var runStart = index
        var runIsASCII = true
        var isASCII = true
        var isValidUTF8 = true
        var hasEscapes = false
        while true {
            // Eight bytes at a time to the next byte that needs a look of its own.
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let stops = Self.stops(in: word)
                // In memory order, the first stop is the lowest byte with its bit set.
                let run = stops == 0 ? 8 : stops.trailingZeroBitCount / 8
                if run > 0, word & (UInt64.max >> (64 - 8 * run)) & Self.highBits != 0 { runIsASCII = false }
                index += run
                if run < 8 { break }
            }
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                if !runIsASCII {
                    isASCII = false
                    isValidUTF8 = isValidUTF8 && isValidUTF8Run(runStart..<index)
                }
                index += 1
                guard isValidUTF8 else { throw failure("invalid UTF-8 in a string") }
                return JSONStringToken(
                    quote: quote, content: start..<(index - 1), isASCII: isASCII, hasEscapes: hasEscapes)
            case UInt8(ascii: "\\"):
                if !runIsASCII {
                    isASCII = false
                    isValidUTF8 = isValidUTF8 && isValidUTF8Run(runStart..<index)
                }
                runIsASCII = true
                hasEscapes = true
                index += 1
                guard let escape = current else { throw failure("unterminated string") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"): _ = try unicodeEscape()
                default: throw failure("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
                runStart = index
            case 0..<0x20:
                if hasEscapes { index += 1 }
                throw failure("control character in a string")
            default:
                if byte >= 0x80 { runIsASCII = false }
                index += 1
            }
        }
    }

    /// The text of a string `scanString()` read.
    package func text(of string: JSONStringToken) -> String {
        // Checked already: valid UTF-8, so decoding cannot replace anything. Typed bytes,
        // not raw ones, take the standard library's fast path (a raw buffer is decoded
        // byte by byte through the generic one, which costs more than reading the string).
        let content = UnsafeRawBufferPointer(rebasing: bytes[string.content]).assumingMemoryBound(to: UInt8.self)
        guard string.hasEscapes else { return String(decoding: content, as: UTF8.self) }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(content.count)
        var position = string.content.lowerBound
        while position < string.content.upperBound {
            let byte = bytes[position]
            position += 1
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var reader = self
                reader.index = position
                // Checked when the string was read, so it cannot fail here.
                let scalar = (try? reader.unicodeEscape()) ?? "\u{FFFD}"
                position = reader.index
                UTF8.encode(scalar) { utf8.append($0) }
            default: utf8.append(escape)  // `"`, `\` or `/`
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Reads the hex digits after `\u` (and a second escape for a surrogate pair).
    private mutating func unicodeEscape() throws -> Unicode.Scalar {
        var scalar = try hexQuad()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw failure("unpaired surrogate in a \\u escape")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate in a \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw failure("unpaired surrogate in a \\u escape")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
        return unicode
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// The high bit of each byte of `word` that is a quote, a backslash or a control
    /// character, the bytes that end a run of a string's text (the bit tricks of "Bit
    /// Twiddling Hacks", "Determine if a word has a byte less than n"). Borrows can set
    /// bits above a true stop, never below one, so the lowest bit set is exact.
    @inline(__always)
    private static func stops(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & highBits
    }

    /// Whether the bytes in `range` are UTF-8 by the standard library's rules; only runs
    /// with non-ASCII bytes get here.
    private func isValidUTF8Run(_ range: Range<Int>) -> Bool {
        String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) != nil
    }
}

extension JSONWalker {
    /// Moves past a number, checking its grammar; whether it has neither fraction nor exponent.
    package mutating func scanNumber() throws -> Bool {
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
            throw failure("invalid number")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw failure("invalid number")
            }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                throw failure("invalid number")
            }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        return isInteger
    }

    /// The number whose text runs from `start` to the current byte; throws when it is out
    /// of range (no `Int64` for an integer, not finite as a `Double`).
    package func numberValue(from start: Int, isInteger: Bool) throws -> JSONValue {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { throw failure("number \(text) is out of range") }
        return .number(number)
    }
}
