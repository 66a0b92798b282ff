import Foundation

/// A ``DocumentController`` for Swift concurrency: an actor that owns one bundle's
/// document, so that any task may read it, change it and save it, one at a time.
///
/// ```swift
/// let memo = try await DocumentActor<Memo>(contentsOf: url)
/// try await memo.write(message: "Add milk", author: "Ada") { $0.text += "\nmilk" }
/// let text = await memo.document.text
/// ```
///
/// Its work runs on a thread of its own (the actor's executor), so a save that reads,
/// hashes, writes and flushes a large bundle holds none of the cooperative threads Swift's
/// tasks share. Within one actor, saves follow each other; two actors (or two
/// processes) saving the same bundle see each other's saves as a `conflict` error, as two
/// controllers do, and nothing is overwritten.
public actor DocumentActor<Document: FileDocument & Sendable> {
    private let executor = ThreadExecutor()
    private let controller: DocumentController<Document>
    /// The bundle's location.
    public nonisolated let url: URL

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens the bundle at `url` and reads its head version (on a thread of its own).
    public init(contentsOf url: URL) async throws {
        self.url = url
        let (bundle, document) = try await BlockingWork.run { () throws -> (DocumentBundle, Document) in
            let bundle = try DocumentBundle(contentsOf: url)
            return (bundle, try bundle.read(Document.self))
        }
        controller = DocumentController(bundle: bundle, document: document)
    }

    /// Starts a new document, to be saved at `url` (which must not exist yet).
    public init(newDocument document: Document, at url: URL) {
        self.url = url
        controller = DocumentController(newDocument: document, at: url)
    }

    /// The document, with the changes not saved yet.
    public var document: Document { controller.document }

    /// The version the document was read from or last saved as; `nil` before a new
    /// document's first save.
    public var version: BundleVersion? { controller.version }

    /// Changes the document in memory, without saving.
    public func update(_ change: (inout Document) throws -> Void) rethrows {
        try change(&controller.document)
    }

    /// Discards unsaved changes and reads the bundle's head version again.
    public func revert() throws {
        try controller.revert()
    }
}

extension DocumentActor where Document: CodableDocument {
    /// Saves the document as a new version by `author`, as a ``DocumentController``'s `save`
    /// does: refused, writing nothing, when a rule is broken or another writer saved first.
    @discardableResult
    public func save(
        message: String = "", author: String, created: Date = DocumentDates.now(),
        compression: ObjectCompression = .zstd
    ) throws -> BundleVersion? {
        try controller.save(message: message, author: author, created: created, compression: compression)
    }

    /// Makes any number of changes and saves them as one version, or none of them, as
    /// ``DocumentController/write(message:author:created:compression:_:)`` does.
    @discardableResult
    public func write(
        message: String = "", author: String, created: Date = DocumentDates.now(),
        compression: ObjectCompression = .zstd, _ body: (inout Document) throws -> Void
    ) throws -> BundleVersion? {
        try controller.write(message: message, author: author, created: created, compression: compression, body)
    }
}
