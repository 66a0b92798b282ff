import Foundation

/// One change to a document's JSON at a path, as `docctl set`, `unset`, `attach` and
/// `edit` make it: what `BundleEdits` applies, by splicing the records it changes into
/// the head's text when it can, else to the whole document.
public enum DocumentEdit: Sendable, Equatable {
    /// Puts `value` at the path (creating missing members; `[+]` appends).
    case set(JSONPath, JSONValue)
    /// Removes the member or element at the path.
    case remove(JSONPath)

    /// Where the edit applies.
    public var path: JSONPath {
        switch self {
        case .set(let path, _), .remove(let path): path
        }
    }

    /// Applies the edit to a document's JSON.
    public func apply(to json: inout JSONValue) throws {
        switch self {
        case .set(let path, let value): try json.setValue(value, at: path)
        case .remove(let path): try json.removeValue(at: path)
        }
    }

    /// What the ids and dates the edit's new records get are derived from, after the
    /// version it is made to: the edit itself, so that the same edit of the same version
    /// gives the same bundle, whether it was spliced or applied to the whole document.
    package var seed: String {
        switch self {
        case .set(let path, let value): "set \(path)=\(ObjectDigest.of(value.encoded(pretty: false)).hex)"
        case .remove(let path): "unset \(path)"
        }
    }
}
