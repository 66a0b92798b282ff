import Foundation

extension CodableDocument {
    public static var migrationPlan: (any SchemaMigrationPlan.Type)? { nil }
    public static var schemaVersion: SchemaVersion {
        migrationPlan.map { $0.schemas.last?.versionIdentifier ?? SchemaVersion(1, 0, 0) } ?? SchemaVersion(1, 0, 0)
    }

    /// The migrator of `migrationPlan`, once the plan is checked, including against this
    /// type: its last schema must be `schemaVersion`, with this type as its model. `nil`
    /// for a type without a plan.
    public static func schemaMigrator() throws -> SchemaMigrator? {
        guard let plan = migrationPlan else { return nil }
        let migrator = try SchemaMigrator(plan: plan, documentName: String(describing: Self.self))
        guard migrator.currentVersion == schemaVersion else {
            throw migrator.planError(
                "ends with schema \(migrator.currentVersion), but \(Self.self) writes \(schemaVersion)")
        }
        let last = migrator.schemas[migrator.schemas.count - 1]
        guard modelType(of: last) == Self.self else {
            throw migrator.planError("ends with \(last), whose model is \(modelType(of: last)), not \(Self.self)")
        }
        return migrator
    }

    /// The stages that take a document stored with `schema` (as its bundle version records
    /// it) to `target`, by default `schemaVersion`. A schema newer than the target is
    /// refused with `unsupportedFormat`, so a document this build cannot read is never
    /// written back; so is one the plan does not list. Without a plan, an older schema
    /// needs no stage: the document is decoded as it is.
    public static func migration(from schema: String, to target: SchemaVersion? = nil) throws -> SchemaMigration {
        if let migrator = try schemaMigrator() {
            return try migrator.migration(from: schema, to: target)
        }
        let target = target ?? schemaVersion
        guard let stored = SchemaVersion(schema) else {
            throw DocumentKitError(
                .unsupportedFormat,
                "written with \(Self.self) schema '\(schema)', which is not a schema version (major.minor.patch)")
        }
        guard stored <= target else {
            throw DocumentKitError(
                .unsupportedFormat,
                """
                written with \(Self.self) schema \(stored); this build reads up to \(target); upgrade \
                \(RunningProgram.name)
                """
            )
        }
        return SchemaMigration(from: stored, to: target, stages: [])
    }

    /// `json`, stored with `schema`, in the schema `target` (by default `schemaVersion`):
    /// `json` itself when it is in it already, else what the migration's stages make of it.
    public static func migratedJSON(
        _ json: Data, schema: String, to target: SchemaVersion? = nil,
        context: DocumentDecodingContext = DocumentDecodingContext()
    ) throws -> Data {
        try migration(from: schema, to: target).run(on: json, context: context)
    }

    /// Decodes a document stored with `schema`: migrated in memory first when the schema is
    /// older, then decoded and checked as `decode(_:context:)` does.
    public static func decode(
        _ data: Data, schema: String, context: DocumentDecodingContext = DocumentDecodingContext()
    ) throws -> Self {
        try decode(try migratedJSON(data, schema: schema, context: context), context: context)
    }
}

/// The model type of `schema`.
package func modelType<Schema: VersionedSchema>(of schema: Schema.Type) -> Any.Type {
    Schema.Model.self
}
