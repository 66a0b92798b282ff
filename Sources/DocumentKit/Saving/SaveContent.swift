import DocumentKitBundle
import DocumentKitJSON
import Foundation

/// What a new version holds, ready for ``BundleSaver`` to write: its file tree, the
/// document type and schema it records, and what the caller already knows about how it
/// differs from the head. Made from a typed document (``init(document:contentType:over:)``),
/// from JSON text checked as a type (``typed(_:text:base:pending:before:alsoBroken:seed:created:)``),
/// from schema-less JSON (``schemaless(_:over:pending:)``), or from a tree as it is
/// (a restore, a spliced record).
package struct SaveContent {
    package var root: FileWrapper
    package var contentType: ContentType
    package var schema: String
    /// The changes from the head's document to this one, when the caller knows them (an
    /// edit that spliced one record); otherwise the save diffs the two texts.
    package var documentChanges: JSONChangeList?
    /// The head's document, when the caller has read it already (checked by the save
    /// against the digest the head's tree records).
    package var baseDocument: Data?

    package init(
        root: FileWrapper, contentType: ContentType, schema: String,
        documentChanges: JSONChangeList? = nil, baseDocument: Data? = nil
    ) {
        self.root = root
        self.contentType = contentType
        self.schema = schema
        self.documentChanges = documentChanges
        self.baseDocument = baseDocument
    }

    /// `document` as its own `fileWrapper` writes it, in the current schema, reusing the
    /// head's files (`existingFile`) where they are unchanged.
    package init<Document: FileDocument>(document: Document, contentType: ContentType, over base: DocumentBundle?)
        throws
    {
        let existing = try base.map { try $0.tree(of: $0.headVersion) }
        self.init(
            root: try document.fileWrapper(
                configuration: WriteConfiguration(contentType: contentType, existingFile: existing)),
            contentType: contentType, schema: Document.schemaVersion.description)
    }

    /// The writer's request for this content; only ``BundleSaver`` makes one.
    func request(metadata: SaveMetadata, base: DocumentBundle?, destination: URL, replace: Bool) -> BundleWriter.Request
    {
        BundleWriter.Request(
            root: root, contentType: contentType.identifier, mimeType: contentType.mimeType, schema: schema,
            metadata: metadata, base: base, destination: destination, replace: replace,
            documentChanges: documentChanges, baseDocument: baseDocument)
    }
}
