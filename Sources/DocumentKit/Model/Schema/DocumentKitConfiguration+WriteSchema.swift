import Foundation

extension DocumentKitConfiguration {
    /// The older schema ``writeSchema`` names
    /// for `type`, or `nil` to write the current one. A value that is not one of the type's
    /// schemas is a usage error.
    package func writeSchemaOverride(for type: any CodableDocument.Type) throws -> (any VersionedSchema.Type)? {
        guard let choice = writeSchema, !choice.version.isEmpty else { return nil }
        let (text, setting) = (choice.version, choice.setting)
        guard let version = SchemaVersion(text) else {
            throw DocumentKitError(.usage, "\(setting) is '\(text)', which is not a schema version (major.minor.patch)")
        }
        if version == type.schemaVersion { return nil }
        guard let migrator = try type.schemaMigrator(), let schema = migrator.schema(version) else {
            let known = (try? type.schemaMigrator())??.knownVersions ?? type.schemaVersion.description
            throw DocumentKitError(.usage, "\(setting) is \(version), which is not a schema of \(type) (\(known))")
        }
        return schema
    }

    /// The schema an edit of `head` writes: `nil` for the type's current one, else the
    /// older one the configuration's write schema names, which must not be older than the head's.
    package func writtenSchema(of type: any CodableDocument.Type, over head: BundleVersion) throws -> SchemaVersion? {
        guard let target = try writeSchemaOverride(for: type)?.versionIdentifier else { return nil }
        if let stored = SchemaVersion(head.schema), stored > target, stored <= type.schemaVersion {
            throw DocumentKitError(
                .usage,
                """
                \(writeSchema?.setting ?? "the write schema")=\(target) cannot write over a head written with \
                schema \(stored): documents are never migrated back
                """
            )
        }
        return target
    }
}
