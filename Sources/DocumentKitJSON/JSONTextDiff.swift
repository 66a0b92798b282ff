import DocumentKitCore
import Foundation

extension JSONValue {
    /// The differences that turn the JSON text `oldText` into `newText`: exactly
    /// `try JSONValue.parse(oldText).changes(to: JSONValue.parse(newText))`, the same
    /// changes in the same order, or the same error for text that is not JSON, without
    /// building either tree.
    ///
    /// Each text is checked once; then the diff reads only what it compares. Members and
    /// elements are found by skipping over the text; values whose bytes are the same are
    /// equal and not looked into; only differing leaves and what was added or removed are
    /// parsed into `JSONValue`s. Two 5 MB documents in which one task changed cost a few
    /// passes over their bytes and the changed task, not two trees of the documents.
    ///
    /// ```swift
    /// let changes = try JSONValue.changes(from: oldDocument, to: newDocument)
    /// ```
    public static func changes(from oldText: Data, to newText: Data, depthLimit: Int = 256) throws -> [JSONChange] {
        var changes = JSONChangeList(limit: .max)
        try collectChanges(from: oldText, to: newText, depthLimit: depthLimit, into: &changes)
        return changes.listed
    }

    /// Adds the changes from `oldText` to `newText` to `changes`.
    package static func collectChanges(
        from oldText: Data, to newText: Data, depthLimit: Int = 256, into changes: inout JSONChangeList
    ) throws {
        try oldText.withUnsafeBytes { old in
            try newText.withUnsafeBytes { new in
                // Both texts are checked before anything is compared, the old one first, as
                // parsing both first would: the same text gives the same error.
                let oldRoot = try JSONTextOperand.document(old, depthLimit: depthLimit)
                let newRoot = try JSONTextOperand.document(new, depthLimit: depthLimit)
                try JSONDiff.collect(from: oldRoot, to: newRoot, into: &changes)
            }
        }
    }
}

extension JSONValue {
    /// Adds the changes from `old` to `new` to `changes`, as
    /// ``collectChanges(from:to:depthLimit:into:)`` does, without checking either again.
    package static func collectChanges(
        from old: CheckedJSONText, to new: CheckedJSONText, depthLimit: Int = 256,
        into changes: inout JSONChangeList
    ) throws {
        try old.text.withUnsafeBytes { oldBytes in
            try new.text.withUnsafeBytes { newBytes in
                try JSONDiff.collect(
                    from: JSONTextOperand(text: oldBytes, range: old.root, depth: 0, depthLimit: depthLimit),
                    to: JSONTextOperand(text: newBytes, range: new.root, depth: 0, depthLimit: depthLimit),
                    into: &changes)
            }
        }
    }
}
