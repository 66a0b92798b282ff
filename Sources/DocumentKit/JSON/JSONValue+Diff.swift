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
}

extension JSONValue {
    /// The differences that turn `self` into `other`, in document order.
    ///
    /// Arrays whose elements are all objects with distinct string `id`s are compared by id,
    /// so inserting or moving a task does not show every later task as changed; other
    /// arrays are compared by position. Blob references compare as single values.
    public func changes(to other: JSONValue) -> [JSONChange] {
        var changes: [JSONChange] = []
        Self.diff(self, other, path: JSONPath(components: []), into: &changes)
        return changes
    }

    private static func diff(_ old: JSONValue, _ new: JSONValue, path: JSONPath, into changes: inout [JSONChange]) {
        guard old != new else { return }
        switch (old, new) {
        case (.object(let before), .object(let after)) where !old.isBlobReference && !new.isBlobReference:
            for key in Set(before.keys).union(after.keys).sorted() {
                let here = path.appending(.key(key))
                switch (before[key], after[key]) {
                case (let a?, let b?): diff(a, b, path: here, into: &changes)
                case (let a?, nil): changes.append(JSONChange(kind: .removed, path: here.description, old: a, new: nil))
                case (nil, let b?): changes.append(JSONChange(kind: .added, path: here.description, old: nil, new: b))
                case (nil, nil): break
                }
            }
        case (.array(let before), .array(let after)):
            if let beforeIDs = identities(before), let afterIDs = identities(after) {
                diffByIdentity(before, beforeIDs, after, afterIDs, path: path, into: &changes)
            } else {
                for index in 0..<max(before.count, after.count) {
                    let here = path.appending(.index(index))
                    if index >= after.count {
                        changes.append(JSONChange(kind: .removed, path: here.description, old: before[index], new: nil))
                    } else if index >= before.count {
                        changes.append(JSONChange(kind: .added, path: here.description, old: nil, new: after[index]))
                    } else {
                        diff(before[index], after[index], path: here, into: &changes)
                    }
                }
            }
        default:
            changes.append(JSONChange(kind: .changed, path: path.description, old: old, new: new))
        }
    }

    private static func diffByIdentity(_ before: [JSONValue], _ beforeIDs: [String], _ after: [JSONValue], _ afterIDs: [String],
                                       path: JSONPath, into changes: inout [JSONChange]) {
        let afterIndex = Dictionary(uniqueKeysWithValues: afterIDs.enumerated().map { ($1, $0) })
        let beforeIndex = Dictionary(uniqueKeysWithValues: beforeIDs.enumerated().map { ($1, $0) })
        for (index, id) in beforeIDs.enumerated() {
            let here = path.appending(.match(field: "id", value: id))
            if let newIndex = afterIndex[id] {
                diff(before[index], after[newIndex], path: here, into: &changes)
            } else {
                changes.append(JSONChange(kind: .removed, path: here.description, old: before[index], new: nil))
            }
        }
        for (index, id) in afterIDs.enumerated() where beforeIndex[id] == nil {
            changes.append(JSONChange(kind: .added, path: path.appending(.match(field: "id", value: id)).description, old: nil, new: after[index]))
        }
        let keptBefore = beforeIDs.filter { afterIndex[$0] != nil }
        let keptAfter = afterIDs.filter { beforeIndex[$0] != nil }
        if keptBefore != keptAfter {
            changes.append(JSONChange(kind: .reordered, path: path.description,
                                      old: .array(keptBefore.map(JSONValue.string)), new: .array(keptAfter.map(JSONValue.string))))
        }
    }

    /// The elements' `id`s, when every element is an object with a distinct string `id`.
    private static func identities(_ elements: [JSONValue]) -> [String]? {
        guard !elements.isEmpty else { return [] }
        var ids: [String] = []
        for element in elements {
            guard case .object(let members) = element, case .string(let id)? = members["id"] else { return nil }
            ids.append(id)
        }
        return Set(ids).count == ids.count ? ids : nil
    }

    /// Whether this is a blob reference (`{"$blob": …}`).
    var isBlobReference: Bool {
        if case .object(let members) = self, case .string? = members["$blob"] { return true }
        return false
    }
}
