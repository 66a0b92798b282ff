import Foundation

/// One step of a `SchemaMigrationPlan`: from one schema version to the next, like
/// SwiftData's `MigrationStage`, with an identifier that never changes once shipped.
///
/// - `lightweight`: the new version only adds optional fields or fields with defaults.
///   The old JSON is decoded as the new version's model, whose decoding fills in the
///   defaults, and encoded again; no code is written. A field the new model does not know
///   fails the stage (strict models refuse unknown fields), so nothing is dropped silently.
/// - `custom`: a closure turns the old version's model into the new one's, e.g. to replace
///   a field with another. `willMigrate` sees the old value first (throw to refuse it);
///   `didMigrate` sees the old and the new value after (throw if they disagree).
///
/// ```swift
/// .custom(id: "v3-task-status", fromVersion: ProjectSchemaV2.self, toVersion: ProjectSchemaV3.self,
///         migrate: { old in ProjectSchemaV3.Project(migrating: old) })
/// ```
///
/// Stages work on the document's JSON, so they chain whatever their models: each decodes
/// the JSON its predecessor encoded. Failures are `invalidDocument` errors naming the
/// stage and, for decoding, the JSON path.
///
/// A stage is an immutable value (the closures it is given are `@Sendable`, and what it
/// adds to them only names types), so plans may keep their stages in `static let`s.
public struct MigrationStage: @unchecked Sendable {
    /// The two kinds of stage.
    public enum Kind: String, Codable, Sendable {
        /// Decoded as the new model, defaults filling in; no code.
        case lightweight
        /// A closure from the old model to the new one.
        case custom
    }

    /// The stage's stable identifier, unique in its plan, e.g. `v2-tags-and-summary`.
    public let id: String
    /// Lightweight or custom.
    public let kind: Kind
    /// The schema the stage reads.
    public let fromVersion: any VersionedSchema.Type
    /// The schema the stage writes.
    public let toVersion: any VersionedSchema.Type
    /// The stage's work, on JSON text: the old version's in, the new version's out.
    private let transform: (Data, DocumentDecodingContext) throws -> Data

    private init(
        id: String, kind: Kind, fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type,
        transform: @escaping (Data, DocumentDecodingContext) throws -> Data
    ) {
        self.id = id
        self.kind = kind
        self.fromVersion = fromVersion
        self.toVersion = toVersion
        self.transform = transform
    }

    /// A stage that needs no code: the new version adds only optional fields or fields
    /// with defaults, which decoding the old JSON as `toVersion`'s model fills in.
    public static func lightweight(
        id: String, fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type
    ) -> MigrationStage {
        MigrationStage(
            id: id, kind: .lightweight, fromVersion: fromVersion, toVersion: toVersion,
            transform: reencoding(as: toVersion))
    }

    /// A stage whose `migrate` closure makes the new version's value from the old one.
    /// `willMigrate` runs first with the old value, `didMigrate` last with both; either
    /// may throw to stop the migration, which then changes nothing.
    public static func custom<Old: VersionedSchema, New: VersionedSchema>(
        id: String, fromVersion: Old.Type, toVersion: New.Type,
        willMigrate: (@Sendable (Old.Model) throws -> Void)? = nil,
        migrate: @escaping @Sendable (Old.Model) throws -> New.Model,
        didMigrate: (@Sendable (Old.Model, New.Model) throws -> Void)? = nil
    ) -> MigrationStage {
        MigrationStage(id: id, kind: .custom, fromVersion: fromVersion, toVersion: toVersion) { json, context in
            let old = try SchemaCoding.decode(Old.Model.self, from: json, context: context)
            try willMigrate?(old)
            let new = try migrate(old)
            try didMigrate?(old, new)
            return try SchemaCoding.encode(new)
        }
    }

    /// Runs the stage alone: `json` is a document of `fromVersion`, the result the same
    /// document in `toVersion`, as compact canonical JSON.
    public func apply(to json: Data, context: DocumentDecodingContext = DocumentDecodingContext()) throws -> Data {
        do {
            return try transform(json, context)
        } catch {
            let (path, message) = DecodingErrorDescription.locate(error)
            let code: DocumentKitError.Code = (error as? DocumentKitError)?.code ?? .invalidDocument
            throw DocumentKitError(
                code,
                """
                \(message) (migrating schema \(fromVersion.versionIdentifier) to \(toVersion.versionIdentifier), \
                stage '\(id)')
                """,
                location: (error as? DocumentKitError)?.location ?? path)
        }
    }

    private static func reencoding<New: VersionedSchema>(as schema: New.Type) -> (Data, DocumentDecodingContext) throws
        -> Data
    {
        { json, context in
            try SchemaCoding.encode(try SchemaCoding.decode(New.Model.self, from: json, context: context))
        }
    }
}
