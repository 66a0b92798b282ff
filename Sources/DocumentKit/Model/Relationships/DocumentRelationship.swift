import Foundation

/// A relationship between two collections of records inside one document, by id, like
/// SwiftData's `@Relationship(deleteRule:inverse:)`: each record of the *sources* lists the
/// ids of records of the *targets* it relates to, and each target may name its one source
/// back (the *inverse*).
///
/// ```swift
/// static var relationships: [DocumentRelationship<Project>] {
///     [DocumentRelationship("column.tasks", from: \.columns, named: "columns", via: \.tasks, named: "tasks",
///                           to: \.tasks, named: "tasks", inverse: \.column, named: "column",
///                           deleteRule: .cascade, inverseDeleteRule: .nullify)]
/// }
/// ```
///
/// Every write transaction (`DocumentController.write`, every docctl edit) then:
/// - keeps the two sides in step: set a task's `column` and the column lists it (and the
///   old column no longer does); list a task in a column and its `column` follows;
/// - applies `deleteRule` to the targets of a deleted source, and `inverseDeleteRule` to
///   the sources that list a deleted target (see `DeleteRule`), cascading through every
///   relationship of the document;
/// - refuses the document when a reference dangles or the sides disagree, listing each.
///
/// The names are the JSON keys of the collections and fields, for the paths the rules
/// report and for reading the ids straight from a document's JSON.
public struct DocumentRelationship<Document> {
    /// A name for messages, e.g. `column.tasks`.
    public let name: String
    /// The JSON keys: the sources' collection, their list of target ids, the targets'
    /// collection, and the targets' field naming their source (`nil` with no inverse).
    public let sourcesKey: String, referencesKey: String, targetsKey: String, inverseKey: String?
    /// What deleting a source does to the targets it lists.
    public let deleteRule: DeleteRule
    /// What deleting a target does to the sources that list it.
    public let inverseDeleteRule: DeleteRule

    @usableFromInline package let snapshot: (Document) -> RelationshipSnapshot
    @usableFromInline package let removeSources: (inout Document, Set<UUID>) -> Void
    @usableFromInline package let removeTargets: (inout Document, Set<UUID>) -> Void
    @usableFromInline package let setReferences: (inout Document, [UUID: [UUID]]) -> Void
    @usableFromInline package let setInverses: (inout Document, [UUID: UUID?]) -> Void

    /// A relationship from `sources` (whose `references` list target ids) to `targets`
    /// (whose `inverse`, when given, names the one source listing them).
    ///
    /// Inlinable, so that the closures reading and changing the records by key path are
    /// compiled in the document type's module, for its types, not as generic code that
    /// looks up the types' metadata for every record it touches.
    @inlinable
    public init<Source: Identifiable, Target: Identifiable>(
        _ name: String,
        from sources: WritableKeyPath<Document, [Source]>, named sourcesKey: String,
        via references: WritableKeyPath<Source, [UUID]>, named referencesKey: String,
        to targets: WritableKeyPath<Document, [Target]>, named targetsKey: String,
        inverse: WritableKeyPath<Target, UUID?>? = nil, named inverseKey: String? = nil,
        deleteRule: DeleteRule, inverseDeleteRule: DeleteRule
    ) where Source.ID == UUID, Target.ID == UUID {
        precondition(
            (inverse == nil) == (inverseKey == nil), "an inverse needs its JSON key, and only an inverse has one")
        self.name = name
        self.sourcesKey = sourcesKey
        self.referencesKey = referencesKey
        self.targetsKey = targetsKey
        self.inverseKey = inverseKey
        self.deleteRule = deleteRule
        self.inverseDeleteRule = inverseDeleteRule
        snapshot = { document in
            WorkMeter.count(.ruleSteps, document[keyPath: sources].count + document[keyPath: targets].count)
            return RelationshipSnapshot(
                sources: document[keyPath: sources].map { .init(id: $0.id, references: $0[keyPath: references]) },
                targets: document[keyPath: targets].map { target in
                    .init(id: target.id, inverse: inverse.flatMap { target[keyPath: $0] })
                })
        }
        removeSources = { document, ids in document[keyPath: sources].removeAll { ids.contains($0.id) } }
        removeTargets = { document, ids in document[keyPath: targets].removeAll { ids.contains($0.id) } }
        setReferences = { document, changes in
            for index in document[keyPath: sources].indices {
                if let new = changes[document[keyPath: sources][index].id] {
                    document[keyPath: sources][index][keyPath: references] = new
                }
            }
        }
        setInverses = { document, changes in
            guard let inverse else { return }
            for index in document[keyPath: targets].indices {
                if let new = changes[document[keyPath: targets][index].id] {
                    document[keyPath: targets][index][keyPath: inverse] = new
                }
            }
        }
    }

    /// The ids this relationship sees in `json`, a document of its type as JSON.
    package func snapshot(ofJSON json: JSONValue) -> RelationshipSnapshot {
        func records(_ key: String) -> [JSONValue] {
            guard case .object(let members) = json, case .array(let elements)? = members[key] else { return [] }
            return elements
        }
        return RelationshipSnapshot(
            sources: records(sourcesKey).compactMap(source(ofJSON:)),
            targets: records(targetsKey).compactMap(target(ofJSON:)))
    }

    /// What this relationship sees of `record`, one of the sources as JSON: its id and
    /// the ids it lists; `nil` for a record without an id.
    package func source(ofJSON record: JSONValue) -> RelationshipSnapshot.Source? {
        guard case .object(let members) = record, let sourceID = Self.id(members["id"]) else { return nil }
        guard case .array(let ids)? = members[referencesKey] else { return .init(id: sourceID, references: []) }
        return .init(id: sourceID, references: ids.compactMap { Self.id($0) })
    }

    /// What this relationship sees of `record`, one of the targets as JSON: its id and
    /// the source it names back; `nil` for a record without an id.
    package func target(ofJSON record: JSONValue) -> RelationshipSnapshot.Target? {
        guard case .object(let members) = record, let targetID = Self.id(members["id"]) else { return nil }
        return .init(id: targetID, inverse: inverseKey.flatMap { Self.id(members[$0]) })
    }

    private static func id(_ value: JSONValue?) -> UUID? {
        if case .string(let text)? = value { UUID(text: text) } else { nil }
    }
}
