import Foundation

/// How a document type's older schemas become its current one, like SwiftData's
/// `SchemaMigrationPlan`: every schema version, oldest first, and one stage from each
/// version to the next.
///
/// ```swift
/// enum NoteMigrationPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] { [NoteSchemaV1.self, NoteSchemaV2.self] }
///     static var stages: [MigrationStage] {
///         [.lightweight(id: "v2-add-tags", fromVersion: NoteSchemaV1.self, toVersion: NoteSchemaV2.self)]
///     }
/// }
///
/// struct Note: CodableDocument {
///     static var migrationPlan: (any SchemaMigrationPlan.Type)? { NoteMigrationPlan.self }
///     …
/// }
/// ```
///
/// A plan is part of the program, so a wrong one is a programming error: `SchemaMigrator`
/// refuses it, saying what is wrong, with an `invalidMigrationPlan` error. The rules:
/// schema versions strictly increase; there is exactly one stage from each version to the
/// next, listed in that order; stage ids are not empty and are unique; the last schema's
/// model is the document type and its version the type's `schemaVersion`. Stages, like
/// versions, never change once shipped: their ids are stable, and a document that went
/// through them is recorded with the version they lead to.
public protocol SchemaMigrationPlan {
    /// Every version of the schema, oldest first; the last is the one this build writes.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages, in the order they run: the first from `schemas[0]` to `schemas[1]`, and so on.
    static var stages: [MigrationStage] { get }
}
