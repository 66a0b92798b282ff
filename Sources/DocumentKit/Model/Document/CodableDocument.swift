import Foundation

/// A plain `Codable` value that is a document: stored as `document.json` in its bundle,
/// with every `BlobReference` it holds stored beside it under `blobs/<digest>`.
///
/// ```swift
/// struct Note: CodableDocument {
///     static let contentType = ContentType(
///         identifier: "com.example.note", filenameExtensions: ["note"],
///         mimeType: "application/vnd.example.note+zip", conformsTo: [.documentBundle])
///     var text: String
/// }
/// ```
///
/// When the type changes, give it versioned schemas and a `migrationPlan`: versions
/// written with an older schema are then migrated in memory when read, and saved in the
/// current schema only when saved again (see `SchemaMigrationPlan`).
public protocol CodableDocument: FileDocument, Codable, RegisteredDocumentType {
    /// The type of the bundles this document is stored in.
    static var contentType: ContentType { get }
    /// The version of the JSON schema this build writes: by default the last schema of
    /// `migrationPlan`, else `1.0.0`.
    static var schemaVersion: SchemaVersion { get }
    /// How documents of older schemas become current ones; `nil` (the default) when the
    /// type has only ever had one schema.
    static var migrationPlan: (any SchemaMigrationPlan.Type)? { get }
    /// Where `docctl attach` puts a file when no `--as` path is given; `nil` to require one.
    static var defaultAttachmentPath: String? { get }
    /// The relationships between the document's records, with their delete rules: kept
    /// consistent and applied by every write transaction, checked by `validate()` (by
    /// default none).
    static var relationships: [DocumentRelationship<Self>] { get }
    /// The document's collections of records, in the order their rules are reported (by
    /// default none). Declaring them lets an edit of one record check and encode only
    /// that record, and checks each record's own rules and unique ids.
    static var recordCollections: [RecordCollection<Self>] { get }
    /// The rules beyond the schema, the records' own and the relationships that the
    /// document breaks (e.g. an empty name), each with its JSON path; by default none.
    func ruleViolations() -> [RuleViolation]
    /// Checks the rules decoding alone cannot; throws an `invalidDocument` error listing
    /// every broken one. By default: `ruleViolations()`, then every record collection's
    /// (each record's rules, unique ids), then every relationship's.
    func validate() throws
}

extension CodableDocument {
    public static var readableContentTypes: [ContentType] { [contentType] }
    public static var defaultAttachmentPath: String? { nil }
    public static var relationships: [DocumentRelationship<Self>] { [] }
    public static var recordCollections: [RecordCollection<Self>] { [] }
    public func ruleViolations() -> [RuleViolation] { [] }

    /// Inlinable, so that the checks run as code for the document's own type.
    @inlinable
    public func validate() throws {
        let broken =
            ruleViolations() + Self.recordCollections.flatMap { $0.violations(self) }
            + Self.relationships.flatMap { $0.violations(in: self) }
        if !broken.isEmpty { throw DocumentKitError(violations: broken) }
    }

    /// The ids this document's relationships relate: what a transaction compares its
    /// change with.
    public var relationshipSnapshots: RelationshipSnapshots {
        RelationshipSnapshots(snapshots: Self.relationships.map { $0.snapshot(self) })
    }

    /// The ids the relationships relate in `json`, a document of this type as JSON.
    package static func relationshipSnapshots(ofJSON json: JSONValue) -> RelationshipSnapshots {
        RelationshipSnapshots(snapshots: relationships.map { $0.snapshot(ofJSON: json) })
    }

    public init(configuration: ReadConfiguration) throws {
        guard let file = configuration.file[VersionLayout.documentName], file.isRegularFile else {
            throw DocumentKitError(.malformedInput, "the version has no \(VersionLayout.documentName)")
        }
        let source: (any ObjectSource)? = if case .object(_, _, let store) = file.contents { store } else { nil }
        let context = DocumentDecodingContext(seed: configuration.version?.id ?? "", objectSource: source)
        self = try Self.decode(
            try file.regularFileContents(), schema: configuration.version?.schema ?? Self.schemaVersion.description,
            context: context)
    }

    /// Decodes the document from JSON, completing what the context supplies and checking
    /// the type's rules. Every failure is an `invalidDocument` error naming the JSON path.
    public static func decode(_ data: Data, context: DocumentDecodingContext = DocumentDecodingContext()) throws -> Self
    {
        let document = try decodeSchema(data, context: context)
        try document.validate()
        return document
    }

    /// Decodes the document from JSON without checking its rules: what a transaction
    /// does before it applies the relationships' rules and checks them all at once.
    package static func decodeSchema(_ data: Data, context: DocumentDecodingContext) throws -> Self {
        try JSONDepth.check(data, limit: JSONDepth.defaultLimit)
        // JSONDecoder's pass over the text, and the depth check's.
        WorkMeter.count(.jsonBytes, 2 * data.count)
        let decoder = DocumentDates.decoder()
        decoder.userInfo[.documentKitContext] = context
        let document: Self
        do {
            document = try decoder.decode(Self.self, from: data)
        } catch let error as DocumentKitError {
            throw error
        } catch {
            let (path, message) = DecodingErrorDescription.locate(error)
            throw DocumentKitError(
                .invalidDocument, "\(message) (\(contentType.identifier) schema \(schemaVersion))", location: path)
        }
        return document
    }

    /// The document's canonical JSON: pretty-printed, keys sorted, UTC times.
    public func encodedJSON() throws -> Data {
        try CanonicalJSONEncoder().encode(self, terminated: true)
    }

    public func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
        try VersionLayout.fileWrapper(for: self, existingFile: configuration.existingFile)
    }
}

extension VersionLayout {
    /// The tree of a document whose root value is `value`: its JSON, and the blobs it
    /// refers to, taken from `existingFile` when they are there already.
    package static func fileWrapper(for value: some Encodable, existingFile: FileWrapper?) throws -> FileWrapper {
        let collector = BlobCollector()
        var encoder = CanonicalJSONEncoder()
        encoder.userInfo[.documentKitBlobCollector] = collector
        let json = try encoder.encode(value, terminated: true)
        let existingBlobs = existingFile?[VersionLayout.blobsFolder]?.fileWrappers ?? [:]
        var blobs: [String: FileWrapper] = [:]
        var missing: [RuleViolation] = []
        for (blob, path) in collector.blobs where blobs[blob.digest.hex] == nil {
            if let existing = existingBlobs[blob.digest.hex], existing.knownDigest == blob.digest {
                blobs[blob.digest.hex] = existing
            } else if let file = blob.file {
                blobs[blob.digest.hex] = file
            } else {
                missing.append(
                    RuleViolation(
                        path, "refers to blob \(blob.digest.short), which is not in the bundle",
                        code: "document.missing-blob"))
            }
        }
        if !missing.isEmpty { throw DocumentKitError(violations: missing) }
        var root: [String: FileWrapper] = [VersionLayout.documentName: FileWrapper(regularFileWithContents: json)]
        if !blobs.isEmpty {
            root[VersionLayout.blobsFolder] = FileWrapper(directoryWithFileWrappers: blobs)
        }
        return FileWrapper(directoryWithFileWrappers: root)
    }
}
