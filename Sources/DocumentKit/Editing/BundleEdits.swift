import Foundation

/// Edits a bundle's document as JSON, the way `docctl` does: every edit is a write
/// transaction (see `DocumentController.write`): checked against the document type's
/// schema, completed (new ids, creation dates), brought in line with its relationships
/// and delete rules, checked against every rule (all broken ones are listed), and saved
/// as one new version under the bundle's lock. An edit that leaves the document as it was
/// saves nothing; a refused one saves nothing either.
///
/// A head written with an older schema is migrated in memory first, so the edit applies to
/// the current schema and the new version records it; a head written with a newer schema
/// than this build knows is refused (`unsupportedFormat`) and the bundle is not written.
///
/// A bundle whose type is not configured (`DocumentKitConfiguration.documentTypes`) is
/// edited as schema-less JSON, checked by the format's rules alone: the document stays a
/// JSON object, every blob it refers to must be in the bundle (or attached by the edit),
/// and the version keeps the head's content type and schema.
public enum BundleEdits {
    /// What an edit did.
    public struct Outcome: Sendable {
        /// The version the edit saved, or `nil` when it changed nothing.
        public var version: BundleVersion?
        /// The version the bundle was at before the edit.
        public var previous: BundleVersion

        package init(version: BundleVersion?, previous: BundleVersion) {
            self.version = version
            self.previous = previous
        }
    }

    /// Creates a bundle at `url` whose first version holds `json`, completed and checked
    /// as a `type` document. Fails if `url` exists, unless `replace`.
    public static func create(
        at url: URL, type: any CodableDocument.Type, json: JSONValue,
        metadata: SaveMetadata, replace: Bool = false
    ) throws -> BundleVersion {
        let pending = PendingObjects(base: nil)
        return try DocumentKitError.located(at: url.relativePath) {
            try createBundle(
                type, text: try checkedText(json, pending: pending), pending: pending,
                metadata: metadata, url: url, replace: replace)!
        }
    }

    /// Applies `change` to the head document's JSON and saves the result as a new version.
    public static func edit(
        at url: URL, metadata: SaveMetadata,
        _ change: (inout JSONValue, EditContext) throws -> Void
    ) throws -> Outcome {
        try saveEdit(at: url, expectedHead: nil, metadata: metadata) { bundle, context in
            try wholeDocumentContent(bundle, context: context, seed: nil, created: metadata.created, change)
        }
    }

    /// Applies `edit` to the head document and saves the result as a new version; the
    /// edit is made by `makeEdit`, which may add objects (attached files) to the context.
    /// When the head is in the current schema and the edit changes one record (or a
    /// field that is no collection) without touching a relationship, only that record is
    /// decoded, checked and encoded (`RecordSplice`); otherwise the whole document is.
    /// Both give the same bundle, or the same error. If `expectedHead` is given and the
    /// bundle's head moved since, nothing is saved and `conflict` is thrown.
    package static func apply(
        at url: URL, expectedHead: VersionID? = nil, metadata: SaveMetadata, splicing: Bool = true,
        _ makeEdit: (EditContext) throws -> DocumentEdit
    ) throws -> Outcome {
        try saveEdit(at: url, expectedHead: expectedHead, metadata: metadata) { bundle, context in
            let edit = try makeEdit(context)
            let seed = "\(bundle.headVersion.id)/\(edit.seed)"
            if splicing, let type = context.documentType,
                let content = try splicedContent(
                    type, edit, bundle: bundle, pending: context.pending, seed: seed, created: metadata.created)
            {
                return content
            }
            return try wholeDocumentContent(bundle, context: context, seed: seed, created: metadata.created) {
                json, _ in
                try edit.apply(to: &json)
            }
        }
    }

    /// Saves, through ``BundleSaver``, what `makeContent` makes of the bundle as it is
    /// under its lock with a fresh edit context, locating every error at `url`.
    private static func saveEdit(
        at url: URL, expectedHead: VersionID?, metadata: SaveMetadata,
        _ makeContent: (DocumentBundle, EditContext) throws -> SaveContent
    ) throws -> Outcome {
        try DocumentKitError.located(at: url.relativePath) {
            let saved = try BundleSaver.save(at: url, expectedHead: expectedHead, metadata: metadata) { bundle in
                let context = EditContext(
                    pending: PendingObjects(base: bundle),
                    documentType: DocumentKitConfiguration.current.documentType(for: bundle.contentTypeIdentifier))
                return try makeContent(bundle, context)
            }
            return Outcome(version: saved.version, previous: saved.previous)
        }
    }

    /// `change` applied to the whole head document: parsed, changed, decoded as the
    /// document type, brought in line with its relationships, checked and encoded (or, for
    /// a type this build does not know, checked as schema-less JSON). `seed` is what new
    /// ids derive from (by default the head and the changed text).
    private static func wholeDocumentContent(
        _ bundle: DocumentBundle, context: EditContext, seed: String?, created: Date,
        _ change: (inout JSONValue, EditContext) throws -> Void
    ) throws -> SaveContent {
        guard let type = context.documentType else {
            var json = try JSONValue.parse(try bundle.documentDataForParsing(of: bundle.headVersion))
            try change(&json, context)
            return try SaveContent.schemaless(json, over: bundle, pending: context.pending)
        }
        // The JSON tree lives only inside this closure: a multi-megabyte document is
        // then held once as a tree, once as typed values, never both at the same time.
        var before = RelationshipSnapshots.empty
        var missingBlobs: [RuleViolation] = []
        let text = try { () throws -> Data in
            var json = try JSONValue.parse(try headDocumentJSON(of: bundle, as: type, now: created))
            before = type.relationshipSnapshots(ofJSON: json)
            try change(&json, context)
            missingBlobs = context.pending.missingBlobs(in: json)
            return json.encoded(pretty: false)
        }()
        MemoryPressure.releaseFreedMemory()
        return try SaveContent.typed(
            type, text: consume text, base: bundle, pending: context.pending, before: before,
            alsoBroken: missingBlobs, seed: seed, created: created)
    }

    /// The head document's JSON in the schema edits write: migrated in memory when the head
    /// was written with an older schema, refused (`unsupportedFormat`) when with a newer one.
    package static func headDocumentJSON(of bundle: DocumentBundle, as type: any CodableDocument.Type, now: Date) throws
        -> Data
    {
        let context = DocumentDecodingContext(now: now, seed: "\(bundle.headVersion.id)/migrate", objectSource: bundle)
        return try type.migratedJSON(
            try bundle.documentDataForParsing(of: bundle.headVersion), schema: bundle.headVersion.schema,
            to: try DocumentKitConfiguration.current.writtenSchema(of: type, over: bundle.headVersion), context: context
        )
    }

    /// Sets the value at `path` (a JSON value, completed and checked by the schema).
    public static func set(_ value: JSONValue, at path: JSONPath, in url: URL, metadata: SaveMetadata) throws -> Outcome
    {
        try apply(at: url, metadata: metadata) { _ in .set(path, value) }
    }

    /// Removes the value at `path`: an optional field, or an element of an array.
    public static func remove(at path: JSONPath, in url: URL, metadata: SaveMetadata) throws -> Outcome {
        try apply(at: url, metadata: metadata) { _ in .remove(path) }
    }

    /// Stores the file at `file` as a blob and puts a reference to it at `path` (by
    /// default the document type's `defaultAttachmentPath`). The blob records `name`, by
    /// default the file's; its media type is `mediaType`, by default guessed from the name.
    public static func attach(
        _ file: URL, at path: JSONPath?, name: String? = nil, mediaType: String? = nil, in url: URL,
        metadata: SaveMetadata
    ) throws -> Outcome {
        try attach(at: path, name: name ?? file.lastPathComponent, mediaType: mediaType, in: url, metadata: metadata) {
            mediaType, name in
            try BlobReference(contentsOf: file, mediaType: mediaType, name: name)
        }
    }

    /// Stores what a stream held (``SpooledInput``, hashed as it was kept) as a blob named
    /// `name`, as ``attach(_:at:name:mediaType:in:metadata:)`` stores a file.
    public static func attach(
        _ input: SpooledInput, at path: JSONPath?, name: String, mediaType: String? = nil, in url: URL,
        metadata: SaveMetadata
    ) throws -> Outcome {
        try attach(at: path, name: name, mediaType: mediaType, in: url, metadata: metadata) { mediaType, name in
            try BlobReference(
                hashedFile: input.url, digest: input.digest, size: input.size, mediaType: mediaType, name: name)
        }
    }

    /// Saves a reference at `path` to the blob `makeBlob` makes, with its media type and
    /// the name it records (`nil` for a schema that records none).
    private static func attach(
        at path: JSONPath?, name: String, mediaType: String?, in url: URL, metadata: SaveMetadata,
        _ makeBlob: (_ mediaType: String, _ name: String?) throws -> BlobReference
    ) throws -> Outcome {
        try apply(at: url, metadata: metadata) { context in
            // A build of an older schema (DOCUMENTKIT_WRITE_SCHEMA) recorded no names.
            let recordsName =
                try context.documentType.map {
                    try DocumentKitConfiguration.current.writeSchemaOverride(for: $0) == nil
                } ?? true
            let blob = try makeBlob(
                mediaType ?? MediaTypes.guess(for: URL(fileURLWithPath: name)), recordsName ? name : nil)
            guard let path = try path ?? context.documentType?.defaultAttachmentPath.map(JSONPath.init(parsing:)) else {
                throw DocumentKitError(
                    .usage, "this document type has no default place for attachments", remedy: .nameAttachmentPlace)
            }
            context.pending.add(blob.file!, digest: blob.digest)
            var reference: [String: JSONValue] = [
                "$blob": .string(blob.digest.hex), "size": .integer(Int64(blob.size)),
                "mediaType": .string(blob.mediaType)
            ]
            if let name = blob.name { reference["name"] = .string(name) }
            return .set(path, .object(reference))
        }
    }

    /// Saves, as a new version, exactly what the version named `name` holds: its tree,
    /// document and blobs, without decoding or re-encoding anything. History is never
    /// rewritten: the restored content is appended as the head.
    public static func restore(_ name: String, in url: URL, metadata: SaveMetadata) throws -> Outcome {
        try saveEdit(at: url, expectedHead: nil, metadata: metadata) { bundle, _ in
            let source = try bundle.version(named: name)
            // Restoring copies the version's tree as it is, recording its schema: a
            // schema this build cannot read would be written as if it could.
            if let type = DocumentKitConfiguration.current.documentType(for: bundle.contentTypeIdentifier) {
                _ = try type.migration(from: source.schema)
            }
            let root: FileWrapper
            do {
                root = try bundle.tree(of: source)
                // Every file the version holds must be there to be restored: in format 3 an
                // object's item can outlive the entry holding its bytes.
                try requireStored(root, in: bundle)
            } catch let error as DocumentKitError {
                throw DocumentKitError(
                    .notFound, "version \(source.number) cannot be restored: \(error.message)", path: url.relativePath)
            }
            return SaveContent(root: root, contentType: bundle.storedContentType, schema: source.schema)
        }
    }

    /// Checks that every file below `folder` is stored in `bundle`, without reading it.
    private static func requireStored(_ folder: FileWrapper, in bundle: DocumentBundle) throws {
        for child in folder.fileWrappers?.values ?? [:].values {
            if child.isDirectory {
                try requireStored(child, in: bundle)
            } else if let digest = child.knownDigest {
                _ = try bundle.storedObject(digest)
            }
        }
    }

    /// Where an edit can add objects (attached files) before they are saved.
    public final class EditContext {
        package let pending: PendingObjects
        /// The registered type of the document being edited; `nil` when it is edited as
        /// schema-less JSON.
        public let documentType: (any CodableDocument.Type)?
        package init(pending: PendingObjects, documentType: (any CodableDocument.Type)?) {
            self.pending = pending
            self.documentType = documentType
        }
    }

    /// Saves `text` (checked JSON) as the first version of a new bundle at `url`.
    package static func createBundle<T: CodableDocument>(
        _ type: T.Type, text: consuming Data, pending: PendingObjects,
        metadata: SaveMetadata, url: URL, replace: Bool
    ) throws -> BundleVersion? {
        try BundleSaver.create(
            at: url, replace: replace,
            try SaveContent.typed(type, text: text, base: nil, pending: pending, created: metadata.created),
            metadata: metadata)
    }

    /// The JSON text of an edited document, once every blob it refers to is known to exist.
    package static func checkedText(_ json: JSONValue, pending: PendingObjects) throws -> Data {
        let missing = pending.missingBlobs(in: json)
        if !missing.isEmpty { throw DocumentKitError(violations: missing) }
        return json.encoded(pretty: false)
    }
}
