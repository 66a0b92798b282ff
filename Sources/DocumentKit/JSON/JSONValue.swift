import Foundation

/// Any JSON value, for working on a document without knowing its type: `docctl get`,
/// `set`, diffs and validation of blob references.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
            return
        }
        let value = try decoder.singleValueContainer()
        if value.decodeNil() { self = .null }
        else if let bool = try? value.decode(Bool.self) { self = .bool(bool) }
        else if let integer = try? value.decode(Int64.self) { self = .integer(integer) }
        else if let number = try? value.decode(Double.self) { self = .number(number) }
        else { self = .string(try value.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .integer(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in members { try container.encode(value, forKey: AnyCodingKey(stringValue: key)) }
        }
    }

    /// A command-line value: JSON where it parses as JSON, otherwise the text as a string.
    public static func parseArgument(_ text: String) -> JSONValue {
        (try? parse(Data(text.utf8))) ?? .string(text)
    }

    /// A word for the value's kind, for messages: `object`, `array`, `string`, …
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer, .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Every blob reference (`{"$blob": …}`) inside the value, with its JSON path.
    public func blobReferences(at prefix: JSONPath = JSONPath(components: [])) -> [(path: JSONPath, digest: String)] {
        switch self {
        case .object(let members):
            if case .string(let digest)? = members["$blob"] { return [(prefix, digest)] }
            return members.keys.sorted().flatMap { members[$0]!.blobReferences(at: prefix.appending(.key($0))) }
        case .array(let elements):
            return elements.enumerated().flatMap { $0.element.blobReferences(at: prefix.appending(.index($0.offset))) }
        default:
            return []
        }
    }
}
