import DocumentKitCore
import Foundation

extension JSONValue {
    /// Parses JSON text (RFC 8259) straight from its bytes: an order of magnitude faster
    /// and leaner than going through `Codable`, which matters for multi-megabyte documents.
    ///
    /// Refuses nesting deeper than `depthLimit`, duplicate keys in an object (which other
    /// readers would resolve differently), and anything after the value but white space.
    public static func parse(_ data: Data, depthLimit: Int = 256) throws -> JSONValue {
        try data.withUnsafeBytes { bytes in
            var parser = JSONParser(bytes: bytes, depthLimit: depthLimit)
            return try parser.parseDocument()
        }
    }
}

extension JSONValue {
    /// Checks that `data` is one JSON text by the parser's rules (grammar, nesting up to
    /// `depthLimit`, no duplicate member names, valid UTF-8) without building any value:
    /// for text another decoder reads next, which would accept duplicates or stack-overflow.
    package static func check(_ data: Data, depthLimit: Int = JSONDepth.defaultLimit) throws {
        try data.withUnsafeBytes { bytes in
            var parser = JSONParser(bytes: bytes, depthLimit: depthLimit)
            _ = try parser.skipDocument()
        }
    }
}

extension JSONValue {
    /// The members named `wanted` of the JSON object `data` holds, reading members only
    /// until all of them are found: the rest of the text is neither parsed nor checked.
    /// A member found before them is parsed in full. Throws if `data` is not an object.
    package static func parseMembers(_ wanted: Set<String>, of data: Data, depthLimit: Int = 256) throws -> [String: JSONValue] {
        try data.withUnsafeBytes { bytes in
            var parser = JSONParser(bytes: bytes, depthLimit: depthLimit)
            return try parser.parseMembers(wanted)
        }
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes. `JSONParser+Skipping.swift` checks
/// values with the same rules, and the same messages, without building them.
package struct JSONParser {
    package let bytes: UnsafeRawBufferPointer
    package let depthLimit: Int
    package var index = 0
    package var depth = 0
    /// The member names of the objects being skipped, innermost last, to find duplicates:
    /// the bytes between each name's quotes.
    package var skippedMemberNames: [Range<Int>] = []
    /// What `skipDocument(outlining:)` records while it checks, and the elements of the
    /// outlined array being skipped.
    package var outline: JSONOutline?
    package var outlinedElements: [JSONOutline.Element]?
    package var outlinedIdentity: Range<Int>?

    package init(bytes: UnsafeRawBufferPointer, depthLimit: Int) {
        self.bytes = bytes
        self.depthLimit = depthLimit
    }

    package mutating func parseDocument() throws -> JSONValue {
        WorkMeter.count(.jsonBytes, bytes.count)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
        return value
    }

    /// Reads the top-level object's members until every `wanted` one is found.
    package mutating func parseMembers(_ wanted: Set<String>) throws -> [String: JSONValue] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard current == UInt8(ascii: "{") else { throw failure("expected a JSON object") }
        try enter()
        index += 1
        var found: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { return found }
        while found.count < wanted.count {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            index += 1
            let value = try parseValue()
            if wanted.contains(key) {
                guard found.updateValue(value, forKey: key) == nil else { throw failure("duplicate member name '\(key)'") }
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): return found
            default: throw failure("expected ',' or '}' in an object")
            }
        }
        return found
    }

    package var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20:
                // Indentation: a run of up to eight spaces in one step.
                guard index + 8 <= bytes.count else {
                    index += 1
                    continue
                }
                let others = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ 0x2020_2020_2020_2020
                index += others == 0 ? 8 : others.trailingZeroBitCount / 8
            case 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    package mutating func parseValue() throws -> JSONValue {
        skipWhitespace()
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    package mutating func enter() throws {
        depth += 1
        guard depth <= depthLimit else { throw failure("JSON is nested more than \(depthLimit) levels deep") }
    }

    private mutating func parseObject() throws -> JSONValue {
        try enter()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
            let start = index
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            index += 1
            let value = try parseValue()
            guard members.updateValue(value, forKey: key) == nil else {
                index = start
                throw failure("duplicate member name '\(key)'")
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    package mutating func parseString() throws -> String {
        index += 1
        let start = index
        var isASCII = true
        // Fast path: no escapes, so the bytes are the string.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                index += 1
                // ASCII needs no validation; the generic validating initializer costs more
                // than the rest of parsing a short string.
                if isASCII { return String(decoding: slice.assumingMemoryBound(to: UInt8.self), as: UTF8.self) }
                guard let text = String(validating: slice, as: UTF8.self) else { throw failure("invalid UTF-8 in a string") }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("control character in a string") }
            isASCII = isASCII && byte < 0x80
            index += 1
        }
        var utf8 = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw failure("invalid UTF-8 in a string") }
                return text
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw failure("unterminated string") }
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    UTF8.encode(scalar) { utf8.append($0) }
                default: throw failure("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            case 0..<0x20:
                throw failure("control character in a string")
            default:
                utf8.append(byte)
            }
        }
    }

    /// Reads the hex digits after `\u` (and a second escape for a surrogate pair).
    package mutating func parseUnicodeEscape() throws -> Unicode.Scalar {
        var scalar = try hexQuad()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
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

    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        let isInteger = try scanNumber()
        return try numberValue(from: start, isInteger: isInteger)
    }

    /// Moves past a number, checking its grammar; whether it has neither fraction nor exponent.
    package mutating func scanNumber() throws -> Bool {
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { throw failure("invalid number") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw failure("invalid number") }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { throw failure("invalid number") }
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        }
        return isInteger
    }

    /// The number whose text runs from `start` to the current byte.
    package func numberValue(from start: Int, isInteger: Bool) throws -> JSONValue {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { throw failure("number \(text) is out of range") }
        return .number(number)
    }

    package mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
              memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
        else { throw failure("unexpected word") }
        index += count
    }

    /// A malformed-input error naming the line and column of the current byte.
    package func failure(_ message: String) -> DocumentKitError {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(index, bytes.count)] {
            if byte == 0x0A { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        return DocumentKitError(.malformedInput, "not valid JSON: \(message) at line \(line), column \(column)")
    }
}
