import Foundation

extension BundleEditor {
    /// An older schema for edits to write, as the program was told it: `version` as given,
    /// and `setting`, the name of what gave it, for messages.
    public struct WriteSchema: Sendable {
        public var version: String
        public var setting: String
        public init(version: String, setting: String) {
            self.version = version
            self.setting = setting
        }
    }

    /// Makes edits write an older schema of the document type: they then check and encode
    /// the document with that version's model and record that version, as a build of that
    /// time did. It exists to make sample and test bundles of old schemas reproducibly
    /// (`SampleDocs/regenerate.sh`, through docctl's `DOCUMENTKIT_WRITE_SCHEMA`); an edit of
    /// a head newer than it is refused, since nothing migrates a document back. Only the
    /// edits of `BundleEditor` (every docctl command that saves) honour it;
    /// `DocumentController` always writes the current schema. `nil`, the default, or an
    /// empty version, writes the current schema.
    public static var writeSchema: WriteSchema? {
        get { chosenWriteSchema.value }
        set { chosenWriteSchema.value = newValue }
    }

    private static let chosenWriteSchema = Protected<WriteSchema?>(nil)

    /// The older schema ``writeSchema`` names for `type`, or `nil` to write the current
    /// one. A value that is not one of the type's schemas is a usage error.
    package static func writeSchemaOverride(for type: any CodableDocument.Type) throws -> (any VersionedSchema.Type)? {
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
    /// older one ``writeSchema`` names, which must not be older than the head's.
    package static func writtenSchema(of type: any CodableDocument.Type, over head: BundleVersion) throws -> SchemaVersion? {
        guard let target = try writeSchemaOverride(for: type)?.versionIdentifier else { return nil }
        if let stored = SchemaVersion(head.schema), stored > target, stored <= type.schemaVersion {
            throw DocumentKitError(.usage, "\(writeSchema?.setting ?? "the write schema")=\(target) cannot write over a head written with schema \(stored): documents are never migrated back")
        }
        return target
    }
}
