import Foundation

@testable import DocumentKit

/// The relationship rules as they were first written (Project schema 4.0.0, before issue 10): a direct reading of the rules,
/// quadratic in places (a fixed point over whole collections, lists searched per
/// element), kept as the model the linear `RelationshipRules` must agree with.
struct ReferenceRelationshipRules<Document> {
    let relationships: [DocumentRelationship<Document>]

    /// Brings `document` (the changed one) in line with the rules, given what the
    /// relationships related before the change; returns each rule the change breaks
    /// (a denied delete, two sides set to disagree). The caller saves nothing then.
    func apply(before: RelationshipSnapshots, to document: inout Document) -> [RuleViolation] {
        guard !relationships.isEmpty else { return [] }
        let old = relationships.indices.map {
            before.snapshots.indices.contains($0)
                ? before.snapshots[$0] : RelationshipSnapshot(sources: [], targets: [])
        }
        let new = relationships.map { $0.snapshot(document) }
        // Most edits (a title, a status) add, remove and move no record: nothing to apply.
        if new == old { return [] }
        let deleted = cascade(deletions(old: old, new: new), old: old, new: new)
        var violations = denials(deleted.all, old: old, new: new)
        for (key, ids) in deleted.cascaded where !ids.isEmpty { remove(ids, from: key, in: &document) }
        nullify(deleted.all, in: &document)
        for (index, relationship) in relationships.enumerated() where relationship.inverseKey != nil {
            violations += keepInverse(relationship, old: old[index], in: &document)
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

    /// Who belongs to whom after the change, for finding what deleted sources take along:
    /// built once per relationship and set of deleted sources, not once per source.
    private struct Membership {
        let relationship: DocumentRelationship<Document>
        let oldReferences: [UUID: [UUID]]
        let newInverse: [UUID: UUID?]
        /// Targets listed by a source that stays.
        let listedElsewhere: Set<UUID>

        init(
            _ relationship: DocumentRelationship<Document>, goneSources: Set<UUID>, old: RelationshipSnapshot,
            new: RelationshipSnapshot
        ) {
            self.relationship = relationship
            oldReferences = old.referencesBySource
            newInverse = new.inverseByTarget
            listedElsewhere = Set(new.sources.filter { !goneSources.contains($0.id) }.flatMap(\.references))
        }

        /// The targets of the deleted `source` that the change left where they were: they
        /// go with it, unless the change moved them to another source.
        func members(of source: UUID) -> [UUID] {
            (oldReferences[source] ?? []).filter { target in
                guard let inverse = newInverse[target] else { return false }
                if relationship.inverseKey != nil, inverse != source { return false }
                return !listedElsewhere.contains(target)
            }
        }
    }

    /// Follows cascading delete rules through every relationship until nothing more goes.
    private func cascade(_ deleted: [String: Set<UUID>], old: [RelationshipSnapshot], new: [RelationshipSnapshot])
        -> (all: [String: Set<UUID>], cascaded: [String: Set<UUID>])
    {
        var all = deleted
        var cascaded: [String: Set<UUID>] = [:]
        func delete(_ id: UUID, from key: String) -> Bool {
            guard all[key, default: []].insert(id).inserted else { return false }
            cascaded[key, default: []].insert(id)
            return true
        }
        var changed = true
        while changed {
            changed = false
            for (index, relationship) in relationships.enumerated() {
                if relationship.deleteRule == .cascade {
                    let goneSources = all[relationship.sourcesKey] ?? []
                    let membership = Membership(
                        relationship, goneSources: goneSources, old: old[index], new: new[index])
                    for source in goneSources {
                        for target in membership.members(of: source) {
                            changed = delete(target, from: relationship.targetsKey) || changed
                        }
                    }
                }
                if relationship.inverseDeleteRule == .cascade {
                    let gone = all[relationship.targetsKey] ?? []
                    for source in new[index].sources where source.references.contains(where: gone.contains) {
                        changed = delete(source.id, from: relationship.sourcesKey) || changed
                    }
                }
            }
        }
        return (all, cascaded)
    }

    /// The deletes a `deny` rule refuses: a source deleted with targets it still has, a
    /// target deleted while a source that stays lists it.
    private func denials(_ deleted: [String: Set<UUID>], old: [RelationshipSnapshot], new: [RelationshipSnapshot])
        -> [RuleViolation]
    {
        var violations: [RuleViolation] = []
        for (index, relationship) in relationships.enumerated() {
            let goneSources = deleted[relationship.sourcesKey] ?? []
            let goneTargets = deleted[relationship.targetsKey] ?? []
            if relationship.deleteRule == .deny {
                let membership = Membership(relationship, goneSources: goneSources, old: old[index], new: new[index])
                for source in old[index].sources where goneSources.contains(source.id) {
                    let kept = membership.members(of: source.id).filter { !goneTargets.contains($0) }
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
            if relationship.inverseDeleteRule == .deny {
                for target in old[index].targets where goneTargets.contains(target.id) {
                    guard
                        let source = new[index].sources.first(where: {
                            !goneSources.contains($0.id) && $0.references.contains(target.id)
                        })
                    else { continue }
                    violations.append(
                        RuleViolation(
                            "\(relationship.targetsKey)[id=\(target.id.uuidString)]",
                            """
                            cannot be deleted while \
                            \(relationship.sourcesKey)[id=\(source.id.uuidString)].\(relationship.referencesKey) \
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
        _ relationship: DocumentRelationship<Document>, old: RelationshipSnapshot,
        in document: inout Document
    ) -> [RuleViolation] {
        let current = relationship.snapshot(document)
        let oldInverse = old.inverseByTarget
        let oldReferences = old.referencesBySource
        var references = current.referencesBySource
        var inverses = current.inverseByTarget
        let known = Set(current.targets.map(\.id))
        var setByTarget = Set<UUID>()
        var violations: [RuleViolation] = []

        // A target's inverse set: its old source lets it go, its new source lists it last.
        for target in current.targets where target.inverse != (oldInverse[target.id] ?? nil) {
            setByTarget.insert(target.id)
            if let previous = oldInverse[target.id] ?? nil, references[previous] != nil {
                references[previous]!.removeAll { $0 == target.id }
            }
            if let source = target.inverse, references[source] != nil, !references[source]!.contains(target.id) {
                references[source]!.append(target.id)
            }
        }
        // A source's list changed: targets it gained name it, targets it lost name nothing.
        for (position, source) in current.sources.enumerated() {
            let before = oldReferences[source.id] ?? []
            guard source.references != before else { continue }
            for target in before where !source.references.contains(target) && known.contains(target) {
                if !setByTarget.contains(target), inverses[target] == source.id { inverses[target] = .some(nil) }
            }
            for target in source.references where !before.contains(target) && known.contains(target) {
                if setByTarget.contains(target) {
                    guard (inverses[target] ?? nil) != source.id else { continue }
                    violations.append(
                        RuleViolation(
                            "\(relationship.sourcesKey)[\(position)].\(relationship.referencesKey)",
                            """
                            lists \(target.uuidString), whose \(relationship.inverseKey!) the same change set to \
                            \((inverses[target] ?? nil)?.uuidString ?? "none")
                            """,
                            code: "document.inconsistent-relationship"))
                    continue
                }
                if let previous = inverses[target] ?? nil, previous != source.id, references[previous] != nil {
                    references[previous]!.removeAll { $0 == target }
                }
                inverses[target] = .some(source.id)
            }
        }
        let changedReferences = references.filter { current.referencesBySource[$0.key] != $0.value }
        let changedInverses = inverses.filter { (current.inverseByTarget[$0.key] ?? nil) != $0.value }
        if !changedReferences.isEmpty { relationship.setReferences(&document, changedReferences) }
        if !changedInverses.isEmpty { relationship.setInverses(&document, changedInverses) }
        return violations
    }
}
