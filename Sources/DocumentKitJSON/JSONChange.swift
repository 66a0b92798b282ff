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
