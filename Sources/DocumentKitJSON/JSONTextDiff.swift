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

/// A JSON text checked once, with the range of its top-level value: what a diff of it
/// against several others takes, so that it is not checked again for each (a deep
/// validation compares every version's document with its parent's and its child's).
package struct CheckedJSONText {
    package let text: Data
    package let root: Range<Int>

    /// Checks `text` as `JSONValue.parse` does; throws its error.
    package init(_ text: Data, depthLimit: Int = 256) throws {
        self.text = text
        root = try text.withUnsafeBytes { bytes in
            var checker = JSONWalker<JSONChecker>(bytes: bytes, depthLimit: depthLimit)
            return try checker.checkDocument()
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

/// One value inside a checked JSON text, as a byte range; its members and elements are
/// found by skipping over the text when the diff asks for them.
package struct JSONTextOperand: JSONDiffOperand {
    /// Reading text that `document(_:depthLimit:)` checked does not fail, but it goes
    /// through the parser's functions, which throw.
    package typealias Failure = any Error

    /// The whole text, which `document(_:depthLimit:)` checked.
    package let text: UnsafeRawBufferPointer
    /// The value's bytes, without white space around them.
    package let range: Range<Int>
    /// How many containers enclose the value.
    package let depth: Int
    package let depthLimit: Int

    /// The top-level value of `text`, after checking all of the text as `JSONValue.parse` does.
    package static func document(_ text: UnsafeRawBufferPointer, depthLimit: Int) throws -> JSONTextOperand {
        var checker = JSONWalker<JSONChecker>(bytes: text, depthLimit: depthLimit)
        return JSONTextOperand(text: text, range: try checker.checkDocument(), depth: 0, depthLimit: depthLimit)
    }

    /// Equal bytes are equal values; unequal bytes may still be (`1e2` and `100.0`, `"\u0041"`
    /// and `"A"`, members in another order), which the diff finds out by looking inside.
    package func isCertainlyEqual(to other: JSONTextOperand) -> Bool {
        range.count == other.range.count
            && memcmp(
                text.baseAddress! + range.lowerBound, other.text.baseAddress! + other.range.lowerBound, range.count)
                == 0
    }

    package func members() throws -> [String: JSONTextOperand]? {
        guard firstByte == UInt8(ascii: "{") else { return nil }
        var members: [String: JSONTextOperand] = [:]
        try forEachMember { key, value in
            members[key] = value
            return true
        }
        if let blob = members["$blob"], blob.firstByte == UInt8(ascii: "\"") { return nil }
        return members
    }

    package func elements() throws -> [JSONTextOperand]? {
        guard firstByte == UInt8(ascii: "[") else { return nil }
        var scanner = JSONTextScanner(text: text, after: range.lowerBound)
        var elements: [JSONTextOperand] = []
        while let element = scanner.nextElement() { elements.append(child(element)) }
        return elements
    }

    package func identity() throws -> String? {
        guard firstByte == UInt8(ascii: "{") else { return nil }
        var id: JSONTextOperand?
        // Member names are unique (the text was checked), so the first `id` is the one.
        try forEachMember { key, value in
            guard key == "id" else { return true }
            id = value
            return false
        }
        guard let id, id.firstByte == UInt8(ascii: "\"") else { return nil }
        guard case .string(let string) = try id.value() else { return nil }
        return string
    }

    package func value() throws -> JSONValue {
        var parser = JSONParser(bytes: text, depthLimit: depthLimit)
        parser.index = range.lowerBound
        parser.depth = depth
        return try parser.walkValue()
    }

    private var firstByte: UInt8 { text[range.lowerBound] }

    private func child(_ range: Range<Int>) -> JSONTextOperand {
        JSONTextOperand(text: text, range: range, depth: depth + 1, depthLimit: depthLimit)
    }

    /// Calls `body` with each member's name and value, in text order, while it returns true.
    private func forEachMember(_ body: (String, JSONTextOperand) -> Bool) throws {
        var scanner = JSONTextScanner(text: text, after: range.lowerBound)
        while let (key, value) = try scanner.nextMember() {
            guard body(key, child(value)) else { return }
        }
    }
}
