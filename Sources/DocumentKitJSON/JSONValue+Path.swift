import DocumentKitCore
import Foundation

extension JSONValue {
    /// The value at `path`. A path with `[*]` names several values: it is refused here
    /// (`usage`), and ``values(at:)`` gives them.
    public func value(at path: JSONPath) throws -> JSONValue {
        guard !path.hasWildcard else {
            throw DocumentKitError(
                .usage, "a path with [*] names several values; here it must name one", location: path.description)
        }
        return try Self.reporting {
            var current = self
            for (offset, component) in path.components.enumerated() {
                let walked = JSONPath(components: Array(path.components[..<offset]))
                current = try current.child(component, walked: walked)
            }
            return current
        }
    }

    /// Every value `path` reaches, in document order: the one value at a path without `[*]`
    /// (or its error, as ``value(at:)``), and for each `[*]` every element of the array,
    /// those where the rest of the path names nothing being left out, as JSONPath queries
    /// do (RFC 9535). A path that reaches nothing at all is `notFound`, naming the first
    /// place it failed.
    public func values(at path: JSONPath) throws -> [JSONValue] {
        guard path.hasWildcard else { return [try value(at: path)] }
        var found: [JSONValue] = []
        var firstMiss: Missing?
        try collect(path.components[...], walked: JSONPath(components: []), into: &found, firstMiss: &firstMiss)
        if found.isEmpty { throw Self.nothingMatches(path, firstMiss) }
        return found
    }

    /// Replaces the value at `path` (creating missing object members on the way, and a
    /// missing array before `[+]`; `[+]` appends to an array). At `[*]`, the rest of the path
    /// is set in every element of the array, and each must take it: an empty or missing
    /// array, or one element that cannot, fails the whole change.
    public mutating func setValue(_ value: JSONValue, at path: JSONPath) throws {
        try Self.reporting {
            try update(path.components[...], walked: JSONPath(components: [])) { $0 = value }
        }
    }

    /// Removes the value at `path`: an object member or an array element. Through `[*]` it
    /// removes every value ``values(at:)`` names, and fails only when that is none. A path
    /// ending in `[*]` is refused (`usage`): removing every element one by one is emptying
    /// the array, which is said by setting it to `[]`.
    public mutating func removeValue(at path: JSONPath) throws {
        guard let last = path.components.last else {
            throw DocumentKitError(.usage, "cannot remove the whole document")
        }
        if path.hasWildcard {
            guard last != .wildcard else {
                let array = JSONPath(components: Array(path.components.dropLast()))
                throw DocumentKitError(
                    .usage, "[*] at the end would remove every element; to empty the array, set \(array) to []",
                    location: path.description)
            }
            var removed = 0
            var firstMiss: Missing?
            try removeEach(
                path.components[...], walked: JSONPath(components: []), removed: &removed, firstMiss: &firstMiss)
            if removed == 0 { throw Self.nothingMatches(path, firstMiss) }
            return
        }
        let parentPath = JSONPath(components: Array(path.components.dropLast()))
        try Self.reporting {
            try update(parentPath.components[...], walked: JSONPath(components: [])) { parent in
                try parent.removeChild(last, path: path)
            }
        }
    }

    /// A place a path names nothing at, and why: thrown inside this file and turned into a
    /// `notFound` error where it leaves it, so that a walk through `[*]` can note the first
    /// one and go on.
    private struct Missing: Error {
        var path: JSONPath
        var detail: String
    }

    /// Runs `body`, turning a `Missing` it throws into the error callers see.
    private static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let missing as Missing {
            throw notFound(missing.path, missing.detail)
        }
    }

    private func child(_ component: JSONPath.Component, walked: JSONPath) throws -> JSONValue {
        let here = walked.appending(component)
        switch (self, component) {
        case (.object(let members), .key(let key)):
            guard let value = members[key] else { throw Missing(path: here, detail: "no such field") }
            return value
        case (.array(let elements), .index), (.array(let elements), .match):
            return elements[try Self.resolveIndex(component, in: elements, path: here)]
        case (_, .append):
            throw DocumentKitError(.usage, "'[+]' names a new element and can only be set", location: here.description)
        default:
            throw mismatch(component, walked: walked)
        }
    }

    /// The values the rest of a path with `[*]` reaches from here, each place it reaches
    /// nothing noted in `firstMiss` when it is the first.
    private func collect(
        _ components: ArraySlice<JSONPath.Component>, walked: JSONPath, into found: inout [JSONValue],
        firstMiss: inout Missing?
    ) throws {
        guard let component = components.first else {
            found.append(self)
            return
        }
        let rest = components.dropFirst()
        guard component == .wildcard else {
            do {
                try child(component, walked: walked).collect(
                    rest, walked: walked.appending(component), into: &found, firstMiss: &firstMiss)
            } catch let missing as Missing {
                if firstMiss == nil { firstMiss = missing }
            }
            return
        }
        guard case .array(let elements) = self, !elements.isEmpty else {
            if firstMiss == nil { firstMiss = emptyOrMismatch(walked: walked) }
            return
        }
        for (index, element) in elements.enumerated() {
            try element.collect(rest, walked: walked.appending(.index(index)), into: &found, firstMiss: &firstMiss)
        }
    }

    private mutating func update(
        _ components: ArraySlice<JSONPath.Component>, walked: JSONPath,
        _ change: (inout JSONValue) throws -> Void
    ) throws {
        guard let component = components.first else {
            try change(&self)
            return
        }
        let here = walked.appending(component)
        let rest = components.dropFirst()
        switch (self, component) {
        case (.object(var members), .key(let key)):
            // A missing member is created as what the rest of the path needs: `tags[+]`
            // starts the array an encoder left out because it was empty. `tags[*]` names
            // the elements of an array there is not.
            if members[key] == nil, rest.first == .wildcard { throw Missing(path: here, detail: "no such field") }
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
        case (.array(var elements), .wildcard):
            guard !elements.isEmpty else { throw emptyOrMismatch(walked: walked) }
            // One copy of the array, each element changed in place: a wildcard over n
            // elements costs one pass, not n.
            for index in elements.indices {
                try elements[index].update(rest, walked: walked.appending(.index(index)), change)
            }
            self = .array(elements)
        default:
            throw mismatch(component, walked: walked)
        }
    }

    /// Removes the values the rest of a path with `[*]` names from here, counting them in
    /// `removed`; a place it names nothing at is noted in `firstMiss` when it is the first.
    private mutating func removeEach(
        _ components: ArraySlice<JSONPath.Component>, walked: JSONPath, removed: inout Int,
        firstMiss: inout Missing?
    ) throws {
        guard let component = components.first else { return }
        let here = walked.appending(component)
        let rest = components.dropFirst()
        do {
            if rest.isEmpty {
                try removeChild(component, path: here)
                removed += 1
                return
            }
            switch (self, component) {
            case (.object(var members), .key(let key)):
                guard var child = members[key] else { throw Missing(path: here, detail: "no such field") }
                let before = removed
                try child.removeEach(rest, walked: here, removed: &removed, firstMiss: &firstMiss)
                guard removed > before else { return }
                members[key] = child
                self = .object(members)
            case (.array(var elements), .index), (.array(var elements), .match):
                let index = try Self.resolveIndex(component, in: elements, path: here)
                let before = removed
                try elements[index].removeEach(rest, walked: here, removed: &removed, firstMiss: &firstMiss)
                guard removed > before else { return }
                self = .array(elements)
            case (.array(var elements), .wildcard):
                guard !elements.isEmpty else { throw emptyOrMismatch(walked: walked) }
                let before = removed
                for index in elements.indices {
                    try elements[index].removeEach(
                        rest, walked: walked.appending(.index(index)), removed: &removed, firstMiss: &firstMiss)
                }
                guard removed > before else { return }
                self = .array(elements)
            case (_, .append):
                throw DocumentKitError(
                    .usage, "'[+]' names a new element and can only be set", location: here.description)
            default:
                throw mismatch(component, walked: walked)
            }
        } catch let missing as Missing {
            if firstMiss == nil { firstMiss = missing }
        }
    }

    /// Removes this container's member or element that `last` names; `path` is where it is.
    private mutating func removeChild(_ last: JSONPath.Component, path: JSONPath) throws {
        switch (self, last) {
        case (.object(var members), .key(let key)):
            guard members.removeValue(forKey: key) != nil else {
                throw Missing(path: path, detail: "has no field '\(key)'")
            }
            self = .object(members)
        case (.array(var elements), _):
            let index = try Self.resolveIndex(last, in: elements, path: path)
            elements.remove(at: index)
            self = .array(elements)
        default:
            throw Missing(path: path, detail: "is \(kindWithArticle)")
        }
    }

    private static func resolveIndex(_ component: JSONPath.Component, in elements: [JSONValue], path: JSONPath) throws
        -> Int
    {
        switch component {
        case .index(let index):
            let resolved = index < 0 ? elements.count + index : index
            guard elements.indices.contains(resolved) else {
                throw Missing(
                    path: path,
                    detail:
                        """
                        index \(index) is out of range (the array has \(elements.count) \
                        element\(elements.count == 1 ? "" : "s"))
                        """
                )
            }
            return resolved
        case .match(let field, let value):
            let found = elements.firstIndex { element in
                guard case .object(let members) = element, let candidate = members[field] else { return false }
                return candidate.matches(value)
            }
            guard let found else { throw Missing(path: path, detail: "no element has \(field) = \(value)") }
            return found
        default:
            throw Missing(path: path, detail: "expected an index")
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

    /// `component` cannot be taken from this value, found at `walked`.
    private func mismatch(_ component: JSONPath.Component, walked: JSONPath) -> Missing {
        let expected = if case .key = component { "an object" } else { "an array" }
        return Missing(path: walked.appending(component), detail: "\(walked) is \(kindWithArticle), not \(expected)")
    }

    /// `[*]` at `walked` reaches no element: the array is empty, or this is no array.
    private func emptyOrMismatch(walked: JSONPath) -> Missing {
        if case .array = self { return Missing(path: walked.appending(.wildcard), detail: "the array is empty") }
        return mismatch(.wildcard, walked: walked)
    }

    /// `a string`, `an object`: the kind of value, for messages.
    private var kindWithArticle: String {
        switch self {
        case .array, .object: "an \(kindName)"
        default: "a \(kindName)"
        }
    }

    private static func notFound(_ path: JSONPath, _ detail: String) -> DocumentKitError {
        DocumentKitError(.notFound, "no value at \(path): \(detail)")
    }

    /// A path with `[*]` that names nothing: the first place it failed says why.
    private static func nothingMatches(_ path: JSONPath, _ firstMiss: Missing?) -> DocumentKitError {
        notFound(path, "nothing matches" + (firstMiss.map { " (\($0.path): \($0.detail))" } ?? ""))
    }
}
