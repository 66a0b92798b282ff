import DocumentKitCore
import Foundation

/// The one recursive-descent reader of JSON text (RFC 8259) over UTF-8 bytes: the grammar,
/// the nesting limit, valid UTF-8, numbers in range, and no duplicate member names, with
/// one set of messages naming the line and column. `Output` decides whether the values it
/// reads are built (`JSONParser`) or only checked (`JSONWalker<JSONChecker>`), so that text
/// one accepts the other accepts, and text one refuses the other refuses with the same error.
package struct JSONWalker<Output: JSONWalkOutput> {
    package let bytes: UnsafeRawBufferPointer
    package let depthLimit: Int
    package var index = 0
    /// How many containers enclose the current position.
    package var depth = 0
    package var output = Output()

    package init(bytes: UnsafeRawBufferPointer, depthLimit: Int) {
        self.bytes = bytes
        self.depthLimit = depthLimit
    }

    /// Reads a whole text: an optional UTF-8 byte order mark, one value, and white space
    /// only after it. Returns the value and its byte range.
    package mutating func walkDocument() throws -> (value: Output.Value, range: Range<Int>) {
        WorkMeter.count(.jsonBytes, bytes.count)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let start = index
        let value = try walkValue()
        let end = index
        skipWhitespace()
        guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
        return (value, start..<end)
    }

    /// Reads the value at the current position, after any white space.
    package mutating func walkValue() throws -> Output.Value {
        skipWhitespace()
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try walkObject()
        case UInt8(ascii: "["): return try walkArray()
        case UInt8(ascii: "\""): return try Output.string(&self, try scanString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return Output.literal(.true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return Output.literal(.false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return Output.literal(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            let isInteger = try scanNumber()
            return try Output.number(&self, from: start, isInteger: isInteger)
        default: throw failure("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func walkObject() throws -> Output.Value {
        try enter()
        index += 1
        var object = Output.beginObject(&self)
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return Output.endObject(&self, object)
        }
        while true {
            let name = try scanMemberName()
            let value = try Output.memberValue(&self, named: name)
            try Output.addMember(&self, name, value, to: &object)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return Output.endObject(&self, object)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func walkArray() throws -> Output.Value {
        try enter()
        index += 1
        var array = Output.beginArray(&self)
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return Output.endArray(&self, array)
        }
        while true {
            Output.addElement(try Output.elementValue(&self), to: &array)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return Output.endArray(&self, array)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    /// Reads a member's name and the colon after it, leaving the walker before its value.
    package mutating func scanMemberName() throws -> JSONStringToken {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
        let name = try scanString()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
        index += 1
        return name
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
                let others =
                    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    ^ 0x2020_2020_2020_2020
                index += others == 0 ? 8 : others.trailingZeroBitCount / 8
            case 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// Goes one container deeper, refusing to pass the limit.
    package mutating func enter() throws {
        depth += 1
        guard depth <= depthLimit else { throw failure("JSON is nested more than \(depthLimit) levels deep") }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
            memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
        else { throw failure("unexpected word") }
        index += count
    }

    /// The error for a member whose name the object has already, pointing at the name.
    package mutating func duplicateMember(_ name: JSONStringToken) -> DocumentKitError {
        index = name.quote
        return failure("duplicate member name '\(text(of: name))'")
    }

    /// A malformed-input error naming the line and column of the current byte.
    package func failure(_ message: String) -> DocumentKitError {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return DocumentKitError(.malformedInput, "not valid JSON: \(message) at line \(line), column \(column)")
    }
}
