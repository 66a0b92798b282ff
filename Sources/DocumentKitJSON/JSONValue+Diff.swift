import DocumentKitCore
import Foundation

/// One difference between two JSON documents, at a path.
public struct JSONChange: Codable, Equatable, Sendable {
    /// What happened at the path.
    public enum Kind: String, Codable, Sendable {
        case added, removed, changed
        /// The same elements (by id) in another order.
        case reordered
    }

    public var kind: Kind
    /// Where, e.g. `tasks[id=6F9…].title`; array elements that have an `id` are named by it.
    public var path: String
    /// The value before (absent for `added`).
    public var old: JSONValue?
    /// The value after (absent for `removed`).
    public var new: JSONValue?

    package init(kind: Kind, path: String, old: JSONValue?, new: JSONValue?) {
        self.kind = kind
        self.path = path
        self.old = old
        self.new = new
    }
}

extension JSONValue {
    /// The differences that turn `self` into `other`, in document order.
    ///
    /// Arrays whose elements are all objects with distinct string `id`s are compared by id,
    /// so inserting or moving a task does not show every later task as changed; other
    /// arrays are compared by position. Blob references compare as single values.
    /// ``changes(from:to:depthLimit:)`` gives the same result from two JSON texts,
    /// without building either tree.
    public func changes(to other: JSONValue) -> [JSONChange] {
        JSONDiff.changes(from: self, to: other)
    }

    /// Whether this is a blob reference (`{"$blob": …}`).
    package var isBlobReference: Bool {
        if case .object(let members) = self, case .string? = members["$blob"] { return true }
        return false
    }
}

extension JSONValue: JSONDiffOperand {
    package typealias Failure = Never

    package func isCertainlyEqual(to other: JSONValue) -> Bool { self == other }

    package func members() -> [String: JSONValue]? {
        guard case .object(let members) = self, !isBlobReference else { return nil }
        return members
    }

    package func elements() -> [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    package func identity() -> String? {
        guard case .object(let members) = self, case .string(let id)? = members["id"] else { return nil }
        return id
    }

    package func value() -> JSONValue { self }
}
