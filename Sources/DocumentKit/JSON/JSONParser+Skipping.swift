import Foundation

extension JSONParser {
    /// Checks a whole JSON text as `parseDocument` does, without building any value, and
    /// returns the byte range of its top-level value.
    ///
    /// Every rule and message is the parser's, in the parser's order (the same grammar,
    /// depth limit, duplicate member names, UTF-8 and number range checks), so that text
    /// this accepts parses, and text it refuses fails with the error `parse` would give.
    mutating func skipDocument() throws -> Range<Int> {
        WorkMeter.count(.jsonBytes, bytes.count)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let start = index
        try skipValue()
        let end = index
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
        return start..<end
    }

    /// Moves past one value, checking it as `parseValue` would.
    mutating func skipValue() throws {
        skipWhitespace()
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): try skipObject()
        case UInt8(ascii: "["): try skipArray()
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            let isInteger = try scanNumber()
            // Up to 18 digits always fit in an Int64: only longer numbers and fractions
            // can be out of range.
            if !isInteger || index - start > 18 { _ = try numberValue(from: start, isInteger: isInteger) }
        default: throw failure("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func skipObject() throws {
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        // This object's names are the tail of `skippedMemberNames` from here; a large
        // object also keeps them in a set, so that finding duplicates stays linear.
        let firstName = skippedMemberNames.count
        defer { skippedMemberNames.removeSubrange(firstName...) }
        var manyNames: Set<String>?
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
            let start = index
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            index += 1
            try skipValue()
            let isDuplicate: Bool
            if let inserted = manyNames?.insert(key).inserted {
                isDuplicate = !inserted
            } else {
                isDuplicate = skippedMemberNames[firstName...].contains(key)
                skippedMemberNames.append(key)
                if skippedMemberNames.count - firstName > 16 { manyNames = Set(skippedMemberNames[firstName...]) }
            }
            guard !isDuplicate else {
                index = start
                throw failure("duplicate member name '\(key)'")
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func skipArray() throws {
        try enter()
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try skipValue()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    /// Checks a string as `parseString` does: the errors it finds while reading (control
    /// characters, escapes, the end of the text) come first, at the same byte (after an
    /// escape it reports a control character one byte later), and invalid UTF-8 last,
    /// after the closing quote. The parser validates the decoded string; the runs of raw
    /// bytes between escapes are checked one by one, which is the same, since an escape
    /// always decodes to whole characters.
    private mutating func skipString() throws {
        index += 1
        var runStart = index
        var runIsASCII = true
        var isValidUTF8 = true
        var afterEscape = false
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                if !runIsASCII { isValidUTF8 = isValidUTF8 && isValidUTF8Run(runStart..<index) }
                index += 1
                guard isValidUTF8 else { throw failure("invalid UTF-8 in a string") }
                return
            case UInt8(ascii: "\\"):
                if !runIsASCII { isValidUTF8 = isValidUTF8 && isValidUTF8Run(runStart..<index) }
                runIsASCII = true
                afterEscape = true
                index += 1
                guard let escape = current else { throw failure("unterminated string") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"): _ = try parseUnicodeEscape()
                default: throw failure("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
                runStart = index
            case 0..<0x20:
                if afterEscape { index += 1 }
                throw failure("control character in a string")
            default:
                if byte >= 0x80 { runIsASCII = false }
                index += 1
            }
        }
    }

    /// Whether the bytes in `range` are UTF-8 by the standard library's rules, which are
    /// the parser's; only runs with non-ASCII bytes get here.
    private func isValidUTF8Run(_ range: Range<Int>) -> Bool {
        String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) != nil
    }
}
