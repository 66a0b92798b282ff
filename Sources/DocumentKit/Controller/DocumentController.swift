import Foundation

/// Owns one document bundle on disk, like `NSDocument`: opens it, holds the document,
/// saves each change as a new version, atomically.
///
/// ```swift
/// let controller = try DocumentController<Project>(contentsOf: url)
/// controller.document.tasks.append(ProjectTask(title: "Ship it"))
/// try controller.save(message: "Add a task", author: "Ada")
/// ```
///
/// A bundle whose head was written with an older schema is migrated in memory when opened
/// (see `CodableDocument.migrationPlan`) and saved in the current schema, as a new
/// version, at the next save; one written with a newer schema cannot be opened.
///
/// `write { }` groups changes into one version as a transaction: all of them are saved,
/// or none (see `write(message:author:created:_:)`).
///
/// A save takes the bundle's lock, and fails with a `conflict` error, naming both
/// versions, if another writer saved since this controller opened or last saved the
/// bundle: nobody's work is overwritten. The unsaved document stays in `document`.
public final class DocumentController<Document: FileDocument> {
    /// The bundle's location.
    public let url: URL
    /// The document being edited.
    public var document: Document
    /// The bundle as last opened or saved; `nil` until a new document's first save.
    public private(set) var bundle: DocumentBundle?

    /// Opens the bundle at `url` and reads its head version.
    public init(contentsOf url: URL) throws {
        let bundle = try DocumentBundle(contentsOf: url)
        self.url = url
        self.bundle = bundle
        self.document = try bundle.read(Document.self)
    }

    /// A controller of `bundle`, opened already, whose head is `document`.
    package init(bundle: DocumentBundle, document: Document) {
        self.url = bundle.url
        self.bundle = bundle
        self.document = document
    }

    /// Starts a new document, to be saved at `url` (which must not exist yet).
    public init(newDocument document: Document, at url: URL) {
        self.url = url
        self.document = document
        self.bundle = nil
    }

    /// The version this controller's document was read from or last saved as.
    public var version: BundleVersion? { bundle?.headVersion }

    /// The bundle's state: what to remember about it that is not the document (the task
    /// last open). Setting it makes no version and never conflicts with a save; the
    /// bundle must have been saved once.
    public var state: BundleState { BundleState(bundle: url) }

    /// Saves the document as a new version by `author`; returns it, or `nil` when nothing
    /// changed. `compression` says how the objects the save adds are stored.
    @discardableResult
    public func save(
        message: String = "", author: String, created: Date = DocumentDates.now(),
        compression: ObjectCompression = .zstd
    ) throws -> BundleVersion? {
        try save(
            document,
            metadata: SaveMetadata(author: author, message: message, created: created, compression: compression))
    }

    /// Saves `document` (this controller's, or a transaction's copy of it) as a new version.
    package func save(_ document: Document, metadata: SaveMetadata) throws -> BundleVersion? {
        guard let contentType = Document.writableContentTypes.first else {
            throw DocumentKitError(.usage, "\(Document.self) declares no writable content type")
        }
        let saved: BundleVersion?
        if let bundle {
            saved = try BundleSaver.save(at: url, expectedHead: bundle.headVersion.id, metadata: metadata) { current in
                try SaveContent(document: document, contentType: contentType, over: current)
            }.version
        } else {
            saved = try BundleSaver.create(
                at: url, replace: false, try SaveContent(document: document, contentType: contentType, over: nil),
                metadata: metadata)
        }
        bundle = try DocumentBundle(contentsOf: url)
        return saved
    }

    /// Discards unsaved changes and reads the bundle's head version again.
    public func revert() throws {
        let bundle = try DocumentBundle(contentsOf: url)
        document = try bundle.read(Document.self)
        self.bundle = bundle
    }
}
