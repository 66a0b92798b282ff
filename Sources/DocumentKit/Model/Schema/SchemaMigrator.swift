import Foundation

/// Plans and runs the migration of a document's JSON from the schema a version was
/// stored with to a newer one, through the stages of a `SchemaMigrationPlan`.
///
/// ```swift
/// let migrator = try SchemaMigrator(plan: ProjectMigrationPlan.self, documentName: "Project")
/// let migration = try migrator.migration(from: "1.0.0")   // both stages, to 3.0.0
/// let json = try migration.run(on: storedJSON)
/// print(migration.stages.map(\.id))
/// ```
///
/// Creating one checks the plan (see `SchemaMigrationPlan`) and throws
/// `invalidMigrationPlan` when it is wrong. Planning refuses, with `unsupportedFormat`, a
/// stored schema newer than the target (it is never read, so never written back) and one
/// the plan does not list.
public struct SchemaMigrator {
    /// The plan.
    public let plan: any SchemaMigrationPlan.Type
    /// What the documents are called in messages, e.g. `Project`.
    public let documentName: String
    /// The plan's schemas, oldest first.
    public let schemas: [any VersionedSchema.Type]
    /// The plan's stages, in order: `stages[i]` goes from `schemas[i]` to `schemas[i + 1]`.
    public let stages: [MigrationStage]

    /// A migrator for `plan`, once the plan is checked.
    public init(plan: any SchemaMigrationPlan.Type, documentName: String = "document") throws {
        self.plan = plan
        self.documentName = documentName
        schemas = plan.schemas
        stages = plan.stages
        try checkPlan()
    }

    /// The plan's schema versions, oldest first.
    public var versions: [SchemaVersion] { schemas.map { $0.versionIdentifier } }

    /// The newest schema: the one this build writes.
    public var currentVersion: SchemaVersion { schemas[schemas.count - 1].versionIdentifier }

    /// The plan's schema with this identifier.
    public func schema(_ version: SchemaVersion) -> (any VersionedSchema.Type)? {
        schemas.first { $0.versionIdentifier == version }
    }

    /// The stages that take a document stored with `stored` (as a bundle version records
    /// it) to `target` (by default the current schema); none when it is there already.
    public func migration(from stored: String, to target: SchemaVersion? = nil) throws -> SchemaMigration {
        let target = target ?? currentVersion
        guard let version = SchemaVersion(stored) else {
            throw DocumentKitError(
                .unsupportedFormat,
                "written with \(documentName) schema '\(stored)', which is not a schema version (major.minor.patch)")
        }
        guard version <= target else {
            throw DocumentKitError(
                .unsupportedFormat,
                """
                written with \(documentName) schema \(version); this build reads up to \(target); upgrade \
                \(RunningProgram.name)
                """
            )
        }
        guard let end = versions.firstIndex(of: target) else {
            throw DocumentKitError(.usage, "\(documentName) has no schema \(target) (its schemas are \(knownVersions))")
        }
        guard let start = versions.firstIndex(of: version) else {
            throw DocumentKitError(
                .unsupportedFormat,
                """
                written with \(documentName) schema \(version), which this build does not know (it knows \
                \(knownVersions))
                """
            )
        }
        return SchemaMigration(from: version, to: target, stages: Array(stages[start..<end]))
    }

    /// `json`, stored with `stored`, migrated to `target` (by default the current schema),
    /// and the migration that ran; `json` itself when no stage had to run.
    public func migrate(
        _ json: Data, from stored: String, to target: SchemaVersion? = nil,
        context: DocumentDecodingContext = DocumentDecodingContext()
    ) throws -> (json: Data, migration: SchemaMigration) {
        let migration = try migration(from: stored, to: target)
        return (try migration.run(on: json, context: context), migration)
    }

    /// `1.0.0, 2.0.0, 3.0.0`.
    package var knownVersions: String { versions.map(\.description).joined(separator: ", ") }
}
