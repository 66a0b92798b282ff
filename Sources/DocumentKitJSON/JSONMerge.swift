import DocumentKitCore
import Foundation

/// A three-way merge of JSON values: what two copies changed since their common
/// ancestor, `base`, brought together, as `docctl pull` merges two copies of a document.
///
/// - A value both sides left alone, or changed the same way, is kept; one changed on one
///   side only takes that side's change (a removal included).
/// - Objects changed on both sides are merged member by member. A blob reference (an
///   object with a `$blob` member) is one value: two different blobs conflict, never mix.
/// - Arrays whose elements are all objects with distinct string `id`s (records) are merged
///   by id (`mergeRecords`): records added on either side are all kept, a record removed
///   on one side and left alone on the other is removed, one removed on one side and
///   changed on the other is a conflict, and records on both sides are merged in turn.
/// - Anything else changed on both sides to different values (a string, a number, an
///   array without ids, an object on one side and not on the other) is a **conflict**,
///   listed with its path and the three values.
///
/// Where there is a conflict, the merged value holds `ours` there, unless `choosing` picks
/// a side for its path: the conflict is then resolved with that side's value (a removal
/// included) and not listed.
public enum JSONMerge {
    /// One of the two sides of a merge.
    public enum Side: String, Codable, Sendable, CaseIterable {
        case ours, theirs
    }

    /// A value both sides changed, each differently.
    public struct Conflict: Codable, Equatable, Sendable {
        /// Where, as users type paths (`tasks[id=6F9…].title`).
        public var path: String
        /// The value in the common ancestor, ours and theirs; `nil` where it is absent.
        public var base: JSONValue?
        public var ours: JSONValue?
        public var theirs: JSONValue?
        /// For a merge each side's values allow but whose result breaks a rule of the
        /// document (a reference to a record the other side removed): the rule's message.
        /// `path` is then a path in the merged document, and the values are `nil`.
        public var rule: String?

        public init(path: String, base: JSONValue?, ours: JSONValue?, theirs: JSONValue?, rule: String? = nil) {
            self.path = path
            self.base = base
            self.ours = ours
            self.theirs = theirs
            self.rule = rule
        }
    }

    /// What a merge made: the merged value (`nil` when both sides removed it) and every
    /// conflict, in document order.
    public struct Result: Equatable, Sendable {
        public var merged: JSONValue?
        public var conflicts: [Conflict]

        public init(merged: JSONValue?, conflicts: [Conflict]) {
            self.merged = merged
            self.conflicts = conflicts
        }
    }

    /// Merges `ours` and `theirs`, two descendants of `base` (`nil` where a value is absent).
    /// `choosing` resolves the conflict at a path (as ``Conflict/path`` writes it) with one
    /// side's value; where it returns `nil` the conflict is listed.
    public static func merge(
        base: JSONValue?, ours: JSONValue?, theirs: JSONValue?,
        choosing: (String) -> Side? = { _ in nil }
    ) -> Result {
        withoutActuallyEscaping(choosing) { choose in
            var conflicts = Conflicts(choose: choose)
            let merged = merge(base, ours, theirs, at: JSONPath(components: []), conflicts: &conflicts)
            return Result(merged: merged, conflicts: conflicts.listed)
        }
    }

    /// The conflicts a merge lists, and how it resolves the ones a side is chosen for.
    package struct Conflicts {
        let choose: (String) -> Side?
        var listed: [Conflict] = []

        /// The side chosen for `conflict`, or `nil` once it is listed.
        mutating func resolve(_ conflict: Conflict) -> Side? {
            if let side = choose(conflict.path) { return side }
            listed.append(conflict)
            return nil
        }
    }

    package static func merge(
        _ base: JSONValue?, _ ours: JSONValue?, _ theirs: JSONValue?, at path: JSONPath,
        conflicts: inout Conflicts
    ) -> JSONValue? {
        if ours == theirs { return ours }
        if base == ours { return theirs }
        if base == theirs { return ours }
        switch (base, ours, theirs) {
        case (.object(let before)?, .object(let mine)?, .object(let yours)?)
        where !isBlobReference(before) && !isBlobReference(mine) && !isBlobReference(yours):
            return .object(mergeMembers(before, mine, yours, at: path, conflicts: &conflicts))
        case (nil, .object(let mine)?, .object(let yours)?) where !isBlobReference(mine) && !isBlobReference(yours):
            // Added on both sides: merged as if added to an empty object.
            return .object(mergeMembers([:], mine, yours, at: path, conflicts: &conflicts))
        case (_, .array(let mine)?, .array(let yours)?):
            if let merged = mergeRecords(base, mine, yours, at: path, conflicts: &conflicts) { return .array(merged) }
        default:
            break
        }
        let side = conflicts.resolve(Conflict(path: path.description, base: base, ours: ours, theirs: theirs))
        return side == .theirs ? theirs : ours
    }

    private static func mergeMembers(
        _ base: [String: JSONValue], _ ours: [String: JSONValue], _ theirs: [String: JSONValue],
        at path: JSONPath, conflicts: inout Conflicts
    ) -> [String: JSONValue] {
        var merged: [String: JSONValue] = [:]
        // Sorted, as canonical text orders members: conflicts come in document order.
        let keys = Set(base.keys).union(ours.keys).union(theirs.keys).sorted {
            $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
        for key in keys {
            if let value = merge(
                base[key], ours[key], theirs[key], at: path.appending(.key(key)), conflicts: &conflicts)
            {
                merged[key] = value
            }
        }
        return merged
    }

    /// Whether `members` are a blob reference, which merges as one value.
    private static func isBlobReference(_ members: [String: JSONValue]) -> Bool {
        if case .string? = members["$blob"] { true } else { false }
    }
}
