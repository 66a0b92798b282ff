import DocumentKitCore

/// The differences between two JSON values, in document order: object members by sorted
/// name; arrays whose elements are all objects with distinct string `id`s matched by
/// id (changes and removals in the old order, then additions in the new order, then
/// `reordered` if the ids kept are in another order); other arrays by position; anything
/// else, blob references included, as one value.
package enum JSONDiff {
    /// The changes from `old` to `new`, two values found at `path` of their documents.
    package static func changes<Operand: JSONDiffOperand>(
        from old: Operand, to new: Operand,
        at path: JSONPath = JSONPath(components: [])
    ) throws(Operand.Failure) -> [JSONChange] {
        var changes = JSONChangeList(limit: .max)
        try collect(from: old, to: new, at: path, into: &changes)
        return changes.listed
    }

    /// Adds the changes from `old` to `new`, found at `path`, to `changes`.
    package static func collect<Operand: JSONDiffOperand>(
        from old: Operand, to new: Operand, at path: JSONPath = JSONPath(components: []),
        into changes: inout JSONChangeList
    ) throws(Operand.Failure) {
        try diff(old, new, path: path, into: &changes)
    }

    /// Appends the changes from `old` to `new` at `path`, which is made only if they differ:
    /// most elements of a long array are equal.
    private static func diff<Operand: JSONDiffOperand>(
        _ old: Operand, _ new: Operand, path makePath: @autoclosure () -> JSONPath,
        into changes: inout JSONChangeList
    ) throws(Operand.Failure) {
        WorkMeter.count(.diffSteps)
        if old.isCertainlyEqual(to: new) { return }
        let path = makePath()
        if let before = try old.members(), let after = try new.members() {
            for key in Set(before.keys).union(after.keys).sorted() {
                let here = path.appending(.key(key))
                switch (before[key], after[key]) {
                case (let a?, let b?): try diff(a, b, path: here, into: &changes)
                case (let a?, nil):
                    try changes.append(
                        throwing: Operand.Failure.self,
                        JSONChange(kind: .removed, path: here.description, old: try a.value(), new: nil))
                case (nil, let b?):
                    try changes.append(
                        throwing: Operand.Failure.self,
                        JSONChange(kind: .added, path: here.description, old: nil, new: try b.value()))
                case (nil, nil): break
                }
            }
        } else if let before = try old.elements(), let after = try new.elements() {
            if let beforeIDs = try identities(before), let afterIDs = try identities(after) {
                try diffByIdentity(before, beforeIDs, after, afterIDs, path: path, into: &changes)
            } else {
                for index in 0..<max(before.count, after.count) {
                    if index >= after.count {
                        try changes.append(
                            throwing: Operand.Failure.self,
                            JSONChange(
                                kind: .removed, path: path.appending(.index(index)).description,
                                old: try before[index].value(), new: nil))
                    } else if index >= before.count {
                        try changes.append(
                            throwing: Operand.Failure.self,
                            JSONChange(
                                kind: .added, path: path.appending(.index(index)).description,
                                old: nil, new: try after[index].value()))
                    } else {
                        try diff(before[index], after[index], path: path.appending(.index(index)), into: &changes)
                    }
                }
            }
        } else {
            // Scalars, blob references, or values of different kinds: one change, if the
            // values differ (text can differ in spelling only: `"\u0041"` is `"A"`).
            let oldValue = try old.value()
            let newValue = try new.value()
            if oldValue != newValue {
                try changes.append(
                    throwing: Operand.Failure.self,
                    JSONChange(kind: .changed, path: path.description, old: oldValue, new: newValue))
            }
        }
    }

    private static func diffByIdentity<Operand: JSONDiffOperand>(
        _ before: [Operand], _ beforeIDs: Identities, _ after: [Operand], _ afterIDs: Identities,
        path: JSONPath, into changes: inout JSONChangeList
    ) throws(Operand.Failure) {
        if beforeIDs.ids == afterIDs.ids {
            // The usual case, and the cheapest: the same elements in the same order.
            for (index, id) in beforeIDs.ids.enumerated() {
                try diff(
                    before[index], after[index], path: path.appending(.match(field: "id", value: id)), into: &changes)
            }
            return
        }
        var keptBefore: [String] = []
        for (index, id) in beforeIDs.ids.enumerated() {
            if let newIndex = afterIDs.positions[id] {
                keptBefore.append(id)
                try diff(
                    before[index], after[newIndex], path: path.appending(.match(field: "id", value: id)), into: &changes
                )
            } else {
                let here = path.appending(.match(field: "id", value: id))
                try changes.append(
                    throwing: Operand.Failure.self,
                    JSONChange(kind: .removed, path: here.description, old: try before[index].value(), new: nil))
            }
        }
        var keptAfter: [String] = []
        for (index, id) in afterIDs.ids.enumerated() {
            if beforeIDs.positions[id] != nil {
                keptAfter.append(id)
            } else {
                try changes.append(
                    throwing: Operand.Failure.self,
                    JSONChange(
                        kind: .added, path: path.appending(.match(field: "id", value: id)).description,
                        old: nil, new: try after[index].value()))
            }
        }
        if keptBefore != keptAfter {
            try changes.append(
                throwing: Operand.Failure.self,
                JSONChange(
                    kind: .reordered, path: path.description,
                    old: .array(keptBefore.map(JSONValue.string)), new: .array(keptAfter.map(JSONValue.string))))
        }
    }

    /// An array's element ids in order, and the position of each.
    private struct Identities {
        var ids: [String] = []
        var positions: [String: Int] = [:]
    }

    /// The elements' `id`s, when every element is an object with a distinct string `id`.
    private static func identities<Operand: JSONDiffOperand>(_ elements: [Operand]) throws(Operand.Failure)
        -> Identities?
    {
        var identities = Identities()
        identities.ids.reserveCapacity(elements.count)
        identities.positions.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let id = try element.identity(), identities.positions.updateValue(index, forKey: id) == nil else {
                return nil
            }
            identities.ids.append(id)
        }
        return identities
    }
}
