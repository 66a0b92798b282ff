import DocumentKitCore
import Foundation

extension JSONValue {
    /// The value at `path`.
    public func value(at path: JSONPath) throws -> JSONValue {
        var current = self
        for (offset, component) in path.components.enumerated() {
            let walked = JSONPath(components: Array(path.components[..<offset]))
            current = try current.child(component, walked: walked)
        }
        return current
    }

    /// Replaces the value at `path` (creating missing object members on the way, and a
    /// missing array before `[+]`; `[+]` appends to an array).
    public mutating func setValue(_ value: JSONValue, at path: JSONPath) throws {
        try update(path.components[...], walked: JSONPath(components: [])) { $0 = value }
    }

    /// Removes the value at `path`: an object member or an array element.
    public mutating func removeValue(at path: JSONPath) throws {
        guard let last = path.components.last else {
            throw DocumentKitError(.usage, "cannot remove the whole document")
        }
        let parentPath = JSONPath(components: Array(path.components.dropLast()))
        try update(parentPath.components[...], walked: JSONPath(components: [])) { parent in
            switch (parent, last) {
            case (.object(var members), .key(let key)):
                guard members.removeValue(forKey: key) != nil else { throw Self.notFound(path, "has no field '\(key)'") }
                parent = .object(members)
            case (.array(var elements), _):
                let index = try Self.resolveIndex(last, in: elements, path: path)
                elements.remove(at: index)
                parent = .array(elements)
            default:
                throw Self.notFound(path, "is \(parent.kindName == "array" || parent.kindName == "object" ? "an" : "a") \(parent.kindName)")
            }
        }
    }

    private func child(_ component: JSONPath.Component, walked: JSONPath) throws -> JSONValue {
        let here = walked.appending(component)
        switch (self, component) {
        case (.object(let members), .key(let key)):
            guard let value = members[key] else { throw Self.notFound(here, "no such field") }
            return value
        case (.array(let elements), .index), (.array(let elements), .match):
            return elements[try Self.resolveIndex(component, in: elements, path: here)]
        case (_, .append):
            throw DocumentKitError(.usage, "'[+]' names a new element and can only be set", location: here.description)
        default:
            throw Self.notFound(here, "\(walked) is a \(kindName), not \(Self.expectedKind(component))")
        }
    }

    private mutating func update(_ components: ArraySlice<JSONPath.Component>, walked: JSONPath,
                                 _ change: (inout JSONValue) throws -> Void) throws {
        guard let component = components.first else {
            try change(&self)
            return
        }
        let here = walked.appending(component)
        let rest = components.dropFirst()
        switch (self, component) {
        case (.object(var members), .key(let key)):
            // A missing member is created as what the rest of the path needs: `tags[+]`
            // starts the array an encoder left out because it was empty.
            var child = members[key] ?? (rest.isEmpty ? .null : rest.first == .append ? .array([]) : .object([:]))
            try child.update(rest, walked: here, change)
            members[key] = child
            self = .object(members)
        case (.array(var elements), .append):
            var child = JSONValue.object([:])
            if rest.isEmpty { child = .null }
            try child.update(rest, walked: here, change)
            elements.append(child)
            self = .array(elements)
        case (.array(var elements), .index), (.array(var elements), .match):
            let index = try Self.resolveIndex(component, in: elements, path: here)
            try elements[index].update(rest, walked: here, change)
            self = .array(elements)
        default:
            throw Self.notFound(here, "\(walked) is a \(kindName), not \(Self.expectedKind(component))")
        }
    }

    private static func resolveIndex(_ component: JSONPath.Component, in elements: [JSONValue], path: JSONPath) throws -> Int {
        switch component {
        case .index(let index):
            let resolved = index < 0 ? elements.count + index : index
            guard elements.indices.contains(resolved) else {
                throw notFound(path, "index \(index) is out of range (the array has \(elements.count) element\(elements.count == 1 ? "" : "s"))")
            }
            return resolved
        case .match(let field, let value):
            let found = elements.firstIndex { element in
                guard case .object(let members) = element, let candidate = members[field] else { return false }
                return candidate.matches(value)
            }
            guard let found else { throw notFound(path, "no element has \(field) = \(value)") }
            return found
        default:
            throw notFound(path, "expected an index")
        }
    }

    /// Whether this value, a member of an element, is what `[field=value]` names: a string
    /// equal to `value` (ignoring case, for UUIDs), or an integer written as `value`.
    package func matches(_ value: String) -> Bool {
        switch self {
        case .string(let text): text == value || text.lowercased() == value.lowercased()
        case .integer(let number): String(number) == value
        default: false
        }
    }

    private static func expectedKind(_ component: JSONPath.Component) -> String {
        if case .key = component { return "an object" }
        return "an array"
    }

    private static func notFound(_ path: JSONPath, _ detail: String) -> DocumentKitError {
        DocumentKitError(.notFound, "no value at \(path): \(detail)")
    }
}
