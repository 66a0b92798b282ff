import Foundation

/// The ids one relationship relates in a document at one moment: what a transaction
/// compares before and after a change.
@usableFromInline
package struct RelationshipSnapshot: Equatable, Sendable {
    @usableFromInline
    package struct Source: Equatable, Sendable {
        @usableFromInline package var id: UUID
        @usableFromInline package var references: [UUID]

        @inlinable
        package init(id: UUID, references: [UUID]) {
            self.id = id
            self.references = references
        }
    }

    @usableFromInline
    package struct Target: Equatable, Sendable {
        @usableFromInline package var id: UUID
        @usableFromInline package var inverse: UUID?

        @inlinable
        package init(id: UUID, inverse: UUID?) {
            self.id = id
            self.inverse = inverse
        }
    }

    @usableFromInline package var sources: [Source]
    @usableFromInline package var targets: [Target]

    @inlinable
    package init(sources: [Source], targets: [Target]) {
        self.sources = sources
        self.targets = targets
    }

    /// Each source's references, by id (the first record of an id, if there are several).
    package var referencesBySource: [UUID: [UUID]] {
        WorkMeter.count(.ruleSteps, sources.count)
        return Dictionary(sources.map { ($0.id, $0.references) }, uniquingKeysWith: { first, _ in first })
    }

    /// Each target's inverse, by id.
    package var inverseByTarget: [UUID: UUID?] {
        WorkMeter.count(.ruleSteps, targets.count)
        return Dictionary(targets.map { ($0.id, $0.inverse) }, uniquingKeysWith: { first, _ in first })
    }
}
