import DocumentKitCore
import Foundation

/// The walker that builds `JSONValue`s.
package typealias JSONParser = JSONWalker<JSONValueBuilder>

/// A `JSONWalker` output that builds each value it reads.
package struct JSONValueBuilder: JSONWalkOutput {
    package init() {}

    package static func string(_ walker: inout JSONParser, _ string: JSONStringToken) throws -> JSONValue {
        .string(walker.text(of: string))
    }

    package static func number(_ walker: inout JSONParser, from start: Int, isInteger: Bool) throws -> JSONValue {
        try walker.numberValue(from: start, isInteger: isInteger)
    }

    package static func literal(_ literal: JSONLiteral) -> JSONValue {
        switch literal {
        case .true: .bool(true)
        case .false: .bool(false)
        case .null: .null
        }
    }

    package static func beginObject(_ walker: inout JSONParser) -> [String: JSONValue] { [:] }

    package static func memberValue(_ walker: inout JSONParser, named name: JSONStringToken) throws -> JSONValue {
        try walker.walkValue()
    }

    package static func addMember(
        _ walker: inout JSONParser, _ name: JSONStringToken, _ value: JSONValue,
        to object: inout [String: JSONValue]
    ) throws {
        guard object.updateValue(value, forKey: walker.text(of: name)) == nil else {
            throw walker.duplicateMember(name)
        }
    }

    package static func endObject(_ walker: inout JSONParser, _ object: [String: JSONValue]) -> JSONValue {
        .object(object)
    }

    package static func beginArray(_ walker: inout JSONParser) -> [JSONValue] { [] }

    package static func elementValue(_ walker: inout JSONParser) throws -> JSONValue { try walker.walkValue() }

    package static func addElement(_ value: JSONValue, to array: inout [JSONValue]) { array.append(value) }

    package static func endArray(_ walker: inout JSONParser, _ array: [JSONValue]) -> JSONValue { .array(array) }
}

extension JSONWalker where Output == JSONValueBuilder {
    /// The value of a whole text.
    package mutating func parseDocument() throws -> JSONValue { try walkDocument().value }

    /// The string whose opening quote is at the current position, moving past it.
    package mutating func parseString() throws -> String { text(of: try scanString()) }

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
            let name = try scanMemberName()
            let value = try walkValue()
            let key = text(of: name)
            if wanted.contains(key) {
                guard found.updateValue(value, forKey: key) == nil else { throw duplicateMember(name) }
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
}

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

    /// The members named `wanted` of the JSON object `data` holds, reading members only
    /// until all of them are found: the rest of the text is neither parsed nor checked.
    /// A member found before them is parsed in full. Throws if `data` is not an object.
    package static func parseMembers(_ wanted: Set<String>, of data: Data, depthLimit: Int = 256) throws -> [String:
        JSONValue]
    {
        try data.withUnsafeBytes { bytes in
            var parser = JSONParser(bytes: bytes, depthLimit: depthLimit)
            return try parser.parseMembers(wanted)
        }
    }
}
