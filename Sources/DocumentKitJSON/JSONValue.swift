import DocumentKitCore
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
        if value.decodeNil() {
            self = .null
        } else if let bool = try? value.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? value.decode(Int64.self) {
            self = .integer(integer)
        } else if let number = try? value.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try value.decode(String.self))
        }
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

    /// Every blob reference (`{"$blob": …}`) inside the value, with its JSON path, in
    /// document order (object members by sorted name).
    public func blobReferences(at prefix: JSONPath = JSONPath(components: [])) -> [(path: JSONPath, digest: String)] {
        var found: [(path: JSONPath, digest: String)] = []
        var path = prefix.components
        collectBlobReferences(path: &path, into: &found)
        return found
    }

    /// Walks the containers only, with one path that grows and shrinks as it goes: a
    /// document of 20,000 tasks has a few references and 200,000 values that are none.
    private func collectBlobReferences(
        path: inout [JSONPath.Component], into found: inout [(path: JSONPath, digest: String)]
    ) {
        switch self {
        case .object(let members):
            if case .string(let digest)? = members["$blob"] {
                found.append((JSONPath(components: path), digest))
                return
            }
            guard members.values.contains(where: \.isContainer) else { return }
            for key in members.keys.sorted() {
                let member = members[key]!
                guard member.isContainer else { continue }
                path.append(.key(key))
                member.collectBlobReferences(path: &path, into: &found)
                path.removeLast()
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() where element.isContainer {
                path.append(.index(index))
                element.collectBlobReferences(path: &path, into: &found)
                path.removeLast()
            }
        default:
            return
        }
    }

    /// Whether the value is an object or an array.
    private var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
