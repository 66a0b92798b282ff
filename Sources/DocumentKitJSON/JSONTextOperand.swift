import DocumentKitCore
import Foundation

/// One value inside a checked JSON text, as a byte range; its members and elements are
/// found by skipping over the text when the diff asks for them.
package struct JSONTextOperand: JSONDiffOperand {
    /// Reading text that `document(_:depthLimit:)` checked does not fail, but it goes
    /// through the parser's functions, which throw.
    package typealias Failure = any Error

    /// The whole text, which `document(_:depthLimit:)` checked.
    package let text: UnsafeRawBufferPointer
    /// The value's bytes, without white space around them.
    package let range: Range<Int>
    /// How many containers enclose the value.
    package let depth: Int
    package let depthLimit: Int

    /// The top-level value of `text`, after checking all of the text as `JSONValue.parse` does.
    package static func document(_ text: UnsafeRawBufferPointer, depthLimit: Int) throws -> JSONTextOperand {
        var checker = JSONWalker<JSONChecker>(bytes: text, depthLimit: depthLimit)
        return JSONTextOperand(text: text, range: try checker.checkDocument(), depth: 0, depthLimit: depthLimit)
    }

    /// Equal bytes are equal values; unequal bytes may still be (`1e2` and `100.0`, `"\u0041"`
    /// and `"A"`, members in another order), which the diff finds out by looking inside.
    package func isCertainlyEqual(to other: JSONTextOperand) -> Bool {
        range.count == other.range.count
            && memcmp(
                text.baseAddress! + range.lowerBound, other.text.baseAddress! + other.range.lowerBound, range.count)
                == 0
    }

    package func members() throws -> [String: JSONTextOperand]? {
        guard firstByte == UInt8(ascii: "{") else { return nil }
        var members: [String: JSONTextOperand] = [:]
        try forEachMember { key, value in
            members[key] = value
            return true
        }
        if let blob = members["$blob"], blob.firstByte == UInt8(ascii: "\"") { return nil }
        return members
    }

    package func elements() throws -> [JSONTextOperand]? {
        guard firstByte == UInt8(ascii: "[") else { return nil }
        var scanner = JSONTextScanner(text: text, after: range.lowerBound)
        var elements: [JSONTextOperand] = []
        while let element = scanner.nextElement() { elements.append(child(element)) }
        return elements
    }

    package func identity() throws -> String? {
        guard firstByte == UInt8(ascii: "{") else { return nil }
        var id: JSONTextOperand?
        // Member names are unique (the text was checked), so the first `id` is the one.
        try forEachMember { key, value in
            guard key == "id" else { return true }
            id = value
            return false
        }
        guard let id, id.firstByte == UInt8(ascii: "\"") else { return nil }
        guard case .string(let string) = try id.value() else { return nil }
        return string
    }

    package func value() throws -> JSONValue {
        var parser = JSONParser(bytes: text, depthLimit: depthLimit)
        parser.index = range.lowerBound
        parser.depth = depth
        return try parser.walkValue()
    }

    private var firstByte: UInt8 { text[range.lowerBound] }

    private func child(_ range: Range<Int>) -> JSONTextOperand {
        JSONTextOperand(text: text, range: range, depth: depth + 1, depthLimit: depthLimit)
    }

    /// Calls `body` with each member's name and value, in text order, while it returns true.
    private func forEachMember(_ body: (String, JSONTextOperand) -> Bool) throws {
        var scanner = JSONTextScanner(text: text, after: range.lowerBound)
        while let (key, value) = try scanner.nextMember() {
            guard body(key, child(value)) else { return }
        }
    }
}
