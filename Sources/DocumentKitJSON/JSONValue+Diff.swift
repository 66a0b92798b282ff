import DocumentKitCore
import Foundation

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
