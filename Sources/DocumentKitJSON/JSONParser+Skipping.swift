import DocumentKitCore
import Foundation

extension JSONParser {
    /// Checks a whole JSON text as `parseDocument` does, without building any value, and
    /// returns the byte range of its top-level value.
    ///
    /// Every rule and message is the parser's, in the parser's order (the same grammar,
    /// depth limit, duplicate member names, UTF-8 and number range checks), so that text
    /// this accepts parses, and text it refuses fails with the error `parse` would give.
    package mutating func skipDocument() throws -> Range<Int> {
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

    /// Checks a whole JSON text as `skipDocument()` does and, when it is an object, records
    /// where its members are and where the elements of the arrays named `keys` are: one
    /// pass gives both the check and the outline.
    package mutating func skipDocument(outlining keys: Set<String>) throws -> (root: Range<Int>, outline: JSONOutline) {
        outline = JSONOutline(outlined: keys)
        defer { outline = nil }
        let root = try skipDocument()
        return (root, outline!)
    }

    /// Moves past one value, checking it as `parseValue` would.
    package mutating func skipValue() throws {
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
        // This object's names are the tail of `skippedMemberNames` from here. Names of
        // plain ASCII are told apart by their bytes, as equal strings of ASCII are equal
        // bytes; from the first other name (an escape, a letter `String` may find equal to
        // another spelling), or when the object is large, they are compared as strings in
        // a set, so that finding duplicates stays linear and agrees with the parser.
        let firstName = skippedMemberNames.count
        defer { skippedMemberNames.removeSubrange(firstName...) }
        var manyNames: Set<String>?
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
            let start = index
            let isPlain = try skipString()
            let name = (start + 1)..<(index - 1)
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            index += 1
            if depth == 1, outline != nil {
                try skipOutlinedMember(self.name(at: start))
            } else if depth == 3, outlinedElements != nil, isPlain ? sameBytes(name, "id") : self.name(at: start) == "id" {
                // The `id` of an element of an outlined array (at depth 2).
                skipWhitespace()
                let value = index
                try skipValue()
                outlinedIdentity = value..<index
            } else {
                try skipValue()
            }
            let isDuplicate: Bool
            if manyNames == nil, isPlain, skippedMemberNames.count - firstName < 16 {
                isDuplicate = skippedMemberNames[firstName...].contains { sameBytes($0, name) }
            } else {
                if manyNames == nil { manyNames = Set(skippedMemberNames[firstName...].map { self.name(at: $0.lowerBound - 1) }) }
                isDuplicate = !manyNames!.insert(self.name(at: start)).inserted
            }
            skippedMemberNames.append(name)
            guard !isDuplicate else {
                index = start
                throw failure("duplicate member name '\(self.name(at: start))'")
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
        // Only an outlined member's array is at depth 2 with elements being recorded.
        let recordsElements = depth == 2 && outlinedElements != nil
        while true {
            if recordsElements {
                skipWhitespace()
                let start = index
                outlinedIdentity = nil
                try skipValue()
                outlinedElements!.append(JSONOutline.Element(value: start..<index, identity: outlinedIdentity))
            } else {
                try skipValue()
            }
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

    /// Skips the value of the top-level member `key`, recording it in the outline, and its
    /// elements when it is an outlined array.
    private mutating func skipOutlinedMember(_ key: String) throws {
        skipWhitespace()
        let start = index
        let isOutlinedArray = current == UInt8(ascii: "[") && outline!.outlined.contains(key)
        if isOutlinedArray { outlinedElements = [] }
        try skipValue()
        outline!.members.append((key, start..<index))
        if isOutlinedArray {
            outline!.elements[key] = outlinedElements
            outlinedElements = nil
        }
    }

    /// Checks a string as `parseString` does: the errors it finds while reading (control
    /// characters, escapes, the end of the text) come first, at the same byte (after an
    /// escape it reports a control character one byte later), and invalid UTF-8 last,
    /// after the closing quote. The parser validates the decoded string; the runs of raw
    /// bytes between escapes are checked one by one, which is the same, since an escape
    /// always decodes to whole characters.
    /// Returns whether the string is plain: ASCII with no escapes, its bytes its value.
    @discardableResult
    private mutating func skipString() throws -> Bool {
        index += 1
        let start = index
        var runStart = index
        var runIsASCII = true
        var isValidUTF8 = true
        var afterEscape = false
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
                if !runIsASCII { isValidUTF8 = isValidUTF8 && isValidUTF8Run(runStart..<index) }
                index += 1
                guard isValidUTF8 else { throw failure("invalid UTF-8 in a string") }
                // No escape moved the run's start: every byte was in this run.
                return runIsASCII && runStart == start
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

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is a quote, a backslash or a control
    /// character, the bytes that end a run of a string's text (the bit tricks of "Bit
    /// Twiddling Hacks", "Determine if a word has a byte less than n"). Borrows can set
    /// bits above a true stop, never below one, so the lowest bit set is exact.
    @inline(__always)
    private static func stops(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote, hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return (hasQuote | hasBackslash | hasControl) & highBits
    }

    /// The member name whose opening quote is at `quote`, decoded: for messages, for
    /// names that are not plain, and for the outline. The string was checked already.
    private func name(at quote: Int) -> String {
        var parser = JSONParser(bytes: bytes, depthLimit: depthLimit)
        parser.index = quote
        return (try? parser.parseString()) ?? ""
    }

    /// Whether two ranges of the text hold the same bytes.
    private func sameBytes(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && memcmp(bytes.baseAddress! + a.lowerBound, bytes.baseAddress! + b.lowerBound, a.count) == 0
    }

    /// Whether the text's bytes in `range` are `ascii`'s.
    private func sameBytes(_ range: Range<Int>, _ ascii: StaticString) -> Bool {
        range.count == ascii.utf8CodeUnitCount && memcmp(bytes.baseAddress! + range.lowerBound, ascii.utf8Start, range.count) == 0
    }

    /// Whether the bytes in `range` are UTF-8 by the standard library's rules, which are
    /// the parser's; only runs with non-ASCII bytes get here.
    private func isValidUTF8Run(_ range: Range<Int>) -> Bool {
        String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) != nil
    }
}
