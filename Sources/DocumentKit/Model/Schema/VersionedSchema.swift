import Foundation

/// One version of a document type's schema, like SwiftData's `VersionedSchema`: its
/// identifier and the `Codable` model that documents of that version decode to.
///
/// A version, once shipped, never changes: documents written with it exist. Keep each
/// version's model as it was, nested in its schema, and make a new version for a change:
///
/// ```swift
/// enum NoteSchemaV1: VersionedSchema {
///     static let versionIdentifier = SchemaVersion(1, 0, 0)
///     typealias Model = Note
///     struct Note: Codable { var text: String }
/// }
/// ```
///
/// The newest version's model is the document type itself; a `SchemaMigrationPlan` lists
/// the versions and the stages between them.
public protocol VersionedSchema {
    /// The document's root value in this version of the schema.
    associatedtype Model: Codable
    /// This version's identifier, recorded in every bundle version written with it.
    static var versionIdentifier: SchemaVersion { get }
}
