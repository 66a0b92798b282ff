import DocumentKitCore
import Foundation

/// A path to a value inside a JSON document, as users type it: `name`, `tasks[2].title`,
/// `tasks[-1]` (the last task), `tasks[+]` (a new element at the end, for `set`),
/// `tasks[id=6F9…]` (the element whose `id` is that), `["odd key"]`, `tasks[*].title`
/// (every element's title).
public struct JSONPath: Equatable, Sendable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Equatable, Sendable {
        /// An object member.
        case key(String)
        /// An array element; negative counts from the end.
        case index(Int)
        /// The position after the last element of an array.
        case append
        /// The array element whose member `field` is the string or number `value`.
        case match(field: String, value: String)
        /// Every element of an array, `[*]`: the path names each value it reaches through
        /// them (see ``JSONValue/values(at:)``, ``JSONValue/setValue(_:at:)`` and
        /// ``JSONValue/removeValue(at:)``).
        case wildcard
    }

    public var components: [Component]

    public init(components: [Component]) { self.components = components }

    /// The most steps a path may have: a document is nested no deeper than this
    /// (`JSONValue.parse` refuses more), so a longer path names nothing a document can
    /// hold, and setting one would build a document that cannot be read back.
    package static let maxComponents = JSONDepth.defaultLimit

    /// Parses a path; the empty string and `.` name the whole document.
    public init(parsing text: String) throws {
        var parser = JSONPathParser(text)
        components = try parser.parse()
    }

    /// Whether a step is `[*]`, so that the path may name several values.
    public var hasWildcard: Bool { components.contains(.wildcard) }

    package func appending(_ component: Component) -> JSONPath {
        JSONPath(components: components + [component])
    }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                // A first key `$` is quoted: plain, it would read as the root (`$.name`).
                let plain =
                    !key.isEmpty
                    && key.unicodeScalars.allSatisfy {
                        CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "$" || $0 == "-"
                    }
                    && !(text.isEmpty && key == "$")
                if plain {
                    text += text.isEmpty ? key : ".\(key)"
                } else {
                    text += "[\(JSONValue.string(key).jsonText(pretty: false))]"
                }
            case .index(let index): text += "[\(index)]"
            case .append: text += "[+]"
            case .wildcard: text += "[*]"
            case .match(let field, let value): text += "[\(field)=\(value)]"
            }
        }
        return text.isEmpty ? "." : text
    }
}

/// A small recursive-descent parser for `JSONPath` text.
private struct JSONPathParser {
    let text: String
    let scalars: [Unicode.Scalar]
    var position = 0

    init(_ text: String) {
        self.text = text
        self.scalars = Array(text.unicodeScalars)
    }

    mutating func parse() throws -> [JSONPath.Component] {
        var components: [JSONPath.Component] = []
        if scalars == ["."] || scalars.isEmpty { return [] }
        if scalars[0] == "$" && (scalars.count == 1 || scalars[1] == "." || scalars[1] == "[") { position += 1 }
        while position < scalars.count {
            // Checked while parsing, since every step of a longer path costs a level of
            // recursion when it is set: a path of 60,000 steps overflowed the stack.
            guard components.count < JSONPath.maxComponents else {
                throw failure("more than \(JSONPath.maxComponents) steps")
            }
            switch scalars[position] {
            case ".":
                position += 1
                components.append(.key(try identifier()))
            case "[":
                position += 1
                components.append(try bracket())
            default:
                guard components.isEmpty else { throw failure("expected '.' or '['") }
                components.append(.key(try identifier()))
            }
        }
        return components
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func identifier() throws -> String {
        let start = position
        while let scalar = peek, scalar != ".", scalar != "[", scalar != "]" { position += 1 }
        guard position > start else { throw failure("expected a field name") }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    private mutating func bracket() throws -> JSONPath.Component {
        guard let first = peek else { throw failure("unclosed '['") }
        let component: JSONPath.Component
        if first == "\"" {
            component = .key(try quoted())
        } else if first == "+" {
            position += 1
            component = .append
        } else if first == "*" {
            position += 1
            component = .wildcard
        } else {
            let start = position
            while let scalar = peek, scalar != "]" { position += 1 }
            let inner = String(String.UnicodeScalarView(scalars[start..<position]))
            if let index = Int(inner) {
                component = .index(index)
            } else if let equals = inner.firstIndex(of: "="), equals != inner.startIndex {
                component = .match(field: String(inner[..<equals]), value: String(inner[inner.index(after: equals)...]))
            } else {
                position = start
                throw failure("expected an index, '+', '*', 'field=value' or a quoted key inside [ ]")
            }
        }
        guard peek == "]" else { throw failure("expected ']'") }
        position += 1
        return component
    }

    private mutating func quoted() throws -> String {
        let start = position
        position += 1
        var escaped = false
        while let scalar = peek {
            position += 1
            if escaped {
                escaped = false
                continue
            }
            if scalar == "\\" {
                escaped = true
                continue
            }
            if scalar == "\"" {
                let literal = String(String.UnicodeScalarView(scalars[start..<position]))
                guard case .string(let key)? = try? JSONValue.parse(Data(literal.utf8)) else { break }
                return key
            }
        }
        position = start
        throw failure("unterminated quoted key")
    }

    private func failure(_ message: String) -> DocumentKitError {
        DocumentKitError(.usage, "invalid path '\(text)': \(message) at character \(position + 1)")
    }
}
