import DocumentKitCore
import Foundation

extension JSONMerge {
    /// Merges arrays of records (objects with distinct string `id`s) by id; `nil` when
    /// `ours`, `theirs` or `base` (when it is there) is not such an array.
    ///
    /// The order is stable and one side's: theirs when only theirs reordered the records
    /// both kept, else ours. Records the other side added go after the record they follow
    /// on that side (the nearest one before them that the merge keeps), or first when none
    /// does; where the leading side added records at the same place, its records come
    /// first. Both sides reordering the kept records differently is a conflict at the
    /// array's path (the merged array then has ours' order, or theirs' when it is chosen).
    package static func mergeRecords(
        _ base: JSONValue?, _ ours: [JSONValue], _ theirs: [JSONValue], at path: JSONPath,
        conflicts: inout Conflicts
    ) -> [JSONValue]? {
        let before: [JSONValue]
        switch base {
        case nil: before = []
        case .array(let elements)?: before = elements
        default: return nil
        }
        guard let baseRecords = Records(before), let ourRecords = Records(ours), let theirRecords = Records(theirs),
            !(ourRecords.ids.isEmpty && theirRecords.ids.isEmpty)
        else { return nil }

        // Each record's merge, in the order of the ids' first appearance: ours, then theirs' additions.
        var merged: [String: JSONValue] = [:]
        var recordConflicts = Conflicts(choose: conflicts.choose)
        var seen = Set<String>()
        for id in ourRecords.ids + theirRecords.ids + baseRecords.ids where seen.insert(id).inserted {
            let here = path.appending(.match(field: "id", value: id))
            if let value = merge(
                baseRecords[id], ourRecords[id], theirRecords[id], at: here, conflicts: &recordConflicts)
            {
                merged[id] = value
            }
        }

        // The order of the records both sides kept from the base, on each side.
        let kept = Set(baseRecords.ids).intersection(ourRecords.ids).intersection(theirRecords.ids)
        let baseOrder = baseRecords.ids.filter(kept.contains)
        let ourOrder = ourRecords.ids.filter(kept.contains)
        let theirOrder = theirRecords.ids.filter(kept.contains)
        var theirsLeads = ourOrder == baseOrder && theirOrder != baseOrder
        if ourOrder != baseOrder, theirOrder != baseOrder, ourOrder != theirOrder {
            theirsLeads =
                conflicts.resolve(
                    Conflict(
                        path: path.description, base: .array(baseOrder.map(JSONValue.string)),
                        ours: .array(ourOrder.map(JSONValue.string)),
                        theirs: .array(theirOrder.map(JSONValue.string)))) == .theirs
        }
        let (leading, other) = theirsLeads ? (theirRecords.ids, ourRecords.ids) : (ourRecords.ids, theirRecords.ids)
        let order = interleave(leading.filter { merged[$0] != nil }, other.filter { merged[$0] != nil })
        conflicts.listed += recordConflicts.listed
        return order.map { merged[$0]! }
    }

    /// `leading`, with the records only `other` has placed after the record each follows
    /// in `other` (the nearest one before it that `leading` has), after the records only
    /// `leading` has at that place; those that follow none go after `leading`'s own first
    /// additions. One pass over each: the cost is linear in the records.
    private static func interleave(_ leading: [String], _ other: [String]) -> [String] {
        let inLeading = Set(leading)
        let inOther = Set(other)
        // The other side's additions, by the record of `leading` they follow (nil: none).
        var following: [String?: [String]] = [:]
        var anchor: String?
        for id in other {
            if inLeading.contains(id) { anchor = id } else { following[anchor, default: []].append(id) }
        }
        var order: [String] = []
        order.reserveCapacity(leading.count + other.count)
        var waiting: String?? = .some(nil)
        for id in leading {
            if inOther.contains(id) {
                if let group = waiting { order += following[group] ?? [] }
                waiting = .some(id)
            }
            order.append(id)
        }
        if let group = waiting { order += following[group] ?? [] }
        return order
    }

    /// An array's records by id, when every element is an object with a distinct string `id`.
    private struct Records {
        var ids: [String] = []
        var byID: [String: JSONValue] = [:]

        init?(_ elements: [JSONValue]) {
            for element in elements {
                guard case .object(let members) = element, case .string(let id)? = members["id"],
                    byID.updateValue(element, forKey: id) == nil
                else { return nil }
                ids.append(id)
            }
        }

        subscript(id: String) -> JSONValue? { byID[id] }
    }
}
