import Foundation

/// One relationship's ids before and after a change, by id: what the rules look up.
package struct RelationshipIndex {
    /// Each source's references before the change.
    package let oldReferences: [UUID: [UUID]]
    /// Each target's inverse before the change.
    package let oldInverse: [UUID: UUID?]
    /// Each source's references after the change.
    package let newReferences: [UUID: [UUID]]
    /// Each target's inverse after the change; a target not here is gone.
    package let newInverse: [UUID: UUID?]
    /// The sources listing each target after the change, in document order.
    package let newListers: [UUID: [UUID]]

    package init(old: RelationshipSnapshot, new: RelationshipSnapshot) {
        WorkMeter.count(.ruleSteps, old.sources.count + old.targets.count + new.sources.count + new.targets.count)
        oldReferences = old.referencesBySource
        oldInverse = old.inverseByTarget
        newReferences = new.referencesBySource
        newInverse = new.inverseByTarget
        var listers: [UUID: [UUID]] = [:]
        var seen = Set<UUID>()
        // The first record of an id only, as `referencesBySource` reads it.
        for source in new.sources where seen.insert(source.id).inserted {
            for target in Set(source.references) { listers[target, default: []].append(source.id) }
        }
        newListers = listers
    }

    /// How many sources list each target after the change.
    package var newListerCounts: [UUID: Int] { newListers.mapValues(\.count) }

    /// The targets listed after the change by a source not in `gone`.
    package func targetsListed(bySourcesOtherThan gone: Set<UUID>) -> Set<UUID> {
        var listed = Set<UUID>()
        for (target, sources) in newListers where sources.contains(where: { !gone.contains($0) }) {
            listed.insert(target)
        }
        return listed
    }
}
