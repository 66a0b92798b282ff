import Foundation

/// Applies a document type's relationships to a change, as a write transaction commits
/// it: the delete rules first (cascades, then denials, then nullified references), then
/// the inverse sides brought in step with whichever side the change set.
///
/// Every step is linear in the records and references of the document: the ids are read
/// once into dictionaries (`RelationshipIndex`), cascades follow a work list that visits
/// each deleted record once, and lists are edited through sets, never searched.
package struct RelationshipRules<Document> {
    package let relationships: [DocumentRelationship<Document>]

    /// Brings `document` (the changed one) in line with the rules, given what the
    /// relationships related before the change; returns each rule the change breaks
    /// (a denied delete, two sides set to disagree). The caller saves nothing then.
    package func apply(before: RelationshipSnapshots, to document: inout Document) -> [RuleViolation] {
        guard !relationships.isEmpty else { return [] }
        let old = relationships.indices.map {
            before.snapshots.indices.contains($0)
                ? before.snapshots[$0] : RelationshipSnapshot(sources: [], targets: [])
        }
        let new = relationships.map { $0.snapshot(document) }
        // Most edits (a title, a status) add, remove and move no record: nothing to apply.
        if new == old { return [] }
        let indexes = zip(old, new).map { RelationshipIndex(old: $0, new: $1) }
        let deleted = cascade(deletions(old: old, new: new), indexes: indexes)
        var violations = denials(deleted.all, old: old, indexes: indexes)
        for (key, ids) in deleted.cascaded where !ids.isEmpty { remove(ids, from: key, in: &document) }
        if deleted.all.contains(where: { !$0.value.isEmpty }) { nullify(deleted.all, in: &document) }
        for (index, relationship) in relationships.enumerated() where relationship.inverseKey != nil {
            violations += keepInverse(relationship, old: indexes[index], in: &document)
        }
        return violations
    }

    /// The ids of the records the change removed, by collection key.
    private func deletions(old: [RelationshipSnapshot], new: [RelationshipSnapshot]) -> [String: Set<UUID>] {
        var deleted: [String: Set<UUID>] = [:]
        for (index, relationship) in relationships.enumerated() {
            deleted[relationship.sourcesKey, default: []].formUnion(
                Set(old[index].sources.map(\.id)).subtracting(new[index].sources.map(\.id)))
            deleted[relationship.targetsKey, default: []].formUnion(
                Set(old[index].targets.map(\.id)).subtracting(new[index].targets.map(\.id)))
        }
        return deleted
    }

    /// Follows cascading delete rules through every relationship until nothing more goes.
    ///
    /// A deleted source takes along the targets it listed before the change that the
    /// change left where they were (still there, still naming it when there is an
    /// inverse) and that no source that stays lists. Whether a source stays can change as
    /// the cascade goes on, so such a target still listed elsewhere waits, and goes when
    /// its last other lister does. A deleted target takes along the sources that list it,
    /// under an inverse cascade. Each record enters the work list once.
    private func cascade(_ deleted: [String: Set<UUID>], indexes: [RelationshipIndex])
        -> (all: [String: Set<UUID>], cascaded: [String: Set<UUID>])
    {
        var all = deleted
        var cascaded: [String: Set<UUID>] = [:]
        var work: [(key: String, id: UUID)] = []
        for key in deleted.keys.sorted() {
            work += deleted[key]!.sorted { $0.uuidString < $1.uuidString }.map { (key, $0) }
        }
        func delete(_ id: UUID, from key: String) {
            guard all[key, default: []].insert(id).inserted else { return }
            cascaded[key, default: []].insert(id)
            work.append((key, id))
        }
        // For each cascading relationship: how many sources that stay list a target, and
        // the targets that go as soon as that count reaches zero.
        var stayingListers: [[UUID: Int]] = indexes.map(\.newListerCounts)
        var waiting: [Set<UUID>] = Array(repeating: [], count: relationships.count)
        while let (key, id) = work.popLast() {
            WorkMeter.count(.ruleSteps)
            for (index, relationship) in relationships.enumerated() {
                let lookup = indexes[index]
                if relationship.deleteRule == .cascade, relationship.sourcesKey == key {
                    for target in Set(lookup.newReferences[id] ?? []) {
                        stayingListers[index][target, default: 1] -= 1
                        if stayingListers[index][target] == 0, waiting[index].remove(target) != nil {
                            delete(target, from: relationship.targetsKey)
                        }
                    }
                    for target in lookup.oldReferences[id] ?? [] {
                        guard let inverse = lookup.newInverse[target] else { continue }
                        if relationship.inverseKey != nil, inverse != id { continue }
                        if stayingListers[index][target, default: 0] == 0 {
                            delete(target, from: relationship.targetsKey)
                        } else {
                            waiting[index].insert(target)
                        }
                    }
                }
                if relationship.inverseDeleteRule == .cascade, relationship.targetsKey == key {
                    for source in lookup.newListers[id] ?? [] { delete(source, from: relationship.sourcesKey) }
                }
            }
        }
        return (all, cascaded)
    }

    /// The deletes a `deny` rule refuses: a source deleted with targets it still has, a
    /// target deleted while a source that stays lists it.
    private func denials(_ deleted: [String: Set<UUID>], old: [RelationshipSnapshot], indexes: [RelationshipIndex])
        -> [RuleViolation]
    {
        var violations: [RuleViolation] = []
        for (index, relationship) in relationships.enumerated() {
            let goneSources = deleted[relationship.sourcesKey] ?? []
            let goneTargets = deleted[relationship.targetsKey] ?? []
            let lookup = indexes[index]
            if relationship.deleteRule == .deny, !goneSources.isEmpty {
                let listedByStayers = lookup.targetsListed(bySourcesOtherThan: goneSources)
                for source in old[index].sources where goneSources.contains(source.id) {
                    let kept = (lookup.oldReferences[source.id] ?? []).filter { target in
                        guard let inverse = lookup.newInverse[target] else { return false }
                        if relationship.inverseKey != nil, inverse != source.id { return false }
                        return !listedByStayers.contains(target) && !goneTargets.contains(target)
                    }
                    guard !kept.isEmpty else { continue }
                    violations.append(
                        RuleViolation(
                            "\(relationship.sourcesKey)[id=\(source.id.uuidString)]",
                            """
                            cannot be deleted while its \(relationship.referencesKey) lists \(kept.count) of \
                            \(relationship.targetsKey) (\(relationship.name) denies it); delete or move them first
                            """,
                            code: "document.delete-denied"))
                }
            }
            if relationship.inverseDeleteRule == .deny, !goneTargets.isEmpty {
                for target in old[index].targets where goneTargets.contains(target.id) {
                    guard let source = (lookup.newListers[target.id] ?? []).first(where: { !goneSources.contains($0) })
                    else { continue }
                    violations.append(
                        RuleViolation(
                            "\(relationship.targetsKey)[id=\(target.id.uuidString)]",
                            """
                            cannot be deleted while \
                            \(relationship.sourcesKey)[id=\(source.uuidString)].\(relationship.referencesKey) \
                            lists it (\(relationship.name) denies it)
                            """,
                            code: "document.delete-denied"))
                }
            }
        }
        return violations
    }

    /// Removes the records with `ids` from the collection `key`.
    private func remove(_ ids: Set<UUID>, from key: String, in document: inout Document) {
        if let relationship = relationships.first(where: { $0.sourcesKey == key }) {
            relationship.removeSources(&document, ids)
        } else if let relationship = relationships.first(where: { $0.targetsKey == key }) {
            relationship.removeTargets(&document, ids)
        }
    }

    /// Takes deleted records out of the lists and inverses of the records that stay.
    private func nullify(_ deleted: [String: Set<UUID>], in document: inout Document) {
        for relationship in relationships {
            let current = relationship.snapshot(document)
            let goneTargets = deleted[relationship.targetsKey] ?? []
            let goneSources = deleted[relationship.sourcesKey] ?? []
            var references: [UUID: [UUID]] = [:]
            for source in current.sources where source.references.contains(where: goneTargets.contains) {
                references[source.id] = source.references.filter { !goneTargets.contains($0) }
            }
            if !references.isEmpty { relationship.setReferences(&document, references) }
            var inverses: [UUID: UUID?] = [:]
            for target in current.targets {
                if let source = target.inverse, goneSources.contains(source) { inverses[target.id] = .some(nil) }
            }
            if !inverses.isEmpty { relationship.setInverses(&document, inverses) }
        }
    }

    /// Makes each side follow the other where the change set only one; reports the
    /// targets whose two sides the change set to disagree.
    private func keepInverse(
        _ relationship: DocumentRelationship<Document>, old: RelationshipIndex,
        in document: inout Document
    ) -> [RuleViolation] {
        let current = relationship.snapshot(document)
        let currentReferences = current.referencesBySource
        let currentInverse = current.inverseByTarget
        let known = Set(current.targets.map(\.id))
        var lists = ListEdits(currentReferences)
        var inverses: [UUID: UUID?] = [:]
        func inverse(of target: UUID) -> UUID? { inverses[target] ?? currentInverse[target] ?? nil }
        var setByTarget = Set<UUID>()
        var violations: [RuleViolation] = []

        // A target's inverse set: its old source lets it go, its new source lists it last.
        for target in current.targets where target.inverse != (old.oldInverse[target.id] ?? nil) {
            setByTarget.insert(target.id)
            if let previous = old.oldInverse[target.id] ?? nil { lists.remove(target.id, from: previous) }
            if let source = target.inverse { lists.append(target.id, to: source) }
        }
        // A source's list changed: targets it gained name it, targets it lost name nothing.
        for (position, source) in current.sources.enumerated() {
            let before = old.oldReferences[source.id] ?? []
            guard source.references != before else { continue }
            let now = Set(source.references)
            let then = Set(before)
            for target in before where !now.contains(target) && known.contains(target) {
                if !setByTarget.contains(target), inverse(of: target) == source.id { inverses[target] = .some(nil) }
            }
            for target in source.references where !then.contains(target) && known.contains(target) {
                if setByTarget.contains(target) {
                    guard inverse(of: target) != source.id else { continue }
                    violations.append(
                        RuleViolation(
                            "\(relationship.sourcesKey)[\(position)].\(relationship.referencesKey)",
                            """
                            lists \(target.uuidString), whose \(relationship.inverseKey!) the same change set to \
                            \(inverse(of: target)?.uuidString ?? "none")
                            """,
                            code: "document.inconsistent-relationship"))
                    continue
                }
                if let previous = inverse(of: target), previous != source.id { lists.remove(target, from: previous) }
                inverses[target] = .some(source.id)
            }
        }
        let changedReferences = lists.changed()
        let changedInverses = inverses.filter { (currentInverse[$0.key] ?? nil) != $0.value }
        if !changedReferences.isEmpty { relationship.setReferences(&document, changedReferences) }
        if !changedInverses.isEmpty { relationship.setInverses(&document, changedInverses) }
        return violations
    }
}

/// Edits to sources' lists of target ids, recorded as removals and appends so that each
/// costs a set operation, applied once at the end. A target is only ever removed from
/// one source and appended to another, so the two never meet in one list.
private struct ListEdits {
    private let current: [UUID: [UUID]]
    private var removed: [UUID: Set<UUID>] = [:]
    private var appended: [UUID: [UUID]] = [:]
    private var members: [UUID: Set<UUID>] = [:]

    init(_ current: [UUID: [UUID]]) { self.current = current }

    /// Takes `target` off the list of `source`, if that source exists.
    mutating func remove(_ target: UUID, from source: UUID) {
        guard current[source] != nil else { return }
        removed[source, default: []].insert(target)
    }

    /// Puts `target` at the end of the list of `source`, if that source exists and does
    /// not list it already.
    mutating func append(_ target: UUID, to source: UUID) {
        guard let list = current[source] else { return }
        if members[source] == nil { members[source] = Set(list) }
        guard members[source]!.insert(target).inserted else { return }
        appended[source, default: []].append(target)
    }

    /// The lists that differ from the current ones, by source.
    func changed() -> [UUID: [UUID]] {
        var lists: [UUID: [UUID]] = [:]
        for source in Set(removed.keys).union(appended.keys) {
            let gone = removed[source] ?? []
            let list = current[source]!.filter { !gone.contains($0) } + (appended[source] ?? [])
            if list != current[source]! { lists[source] = list }
        }
        return lists
    }
}
