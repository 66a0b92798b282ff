import Foundation

/// What changed between two versions, of one bundle or of two: the document, path by
/// path, and the blobs stored beside it.
///
/// ```swift
/// let diff = try VersionDiff(of: url, from: "1", to: "head")
/// for change in diff.changes { print(change.kind, change.path) }
/// ```
public struct VersionDiff: Codable, Equatable, Sendable {
    public var from: VersionSummary
    public var to: VersionSummary
    /// The bundle `from` is a version of, as given, when the diff compares two bundles;
    /// `nil` (and left out of the JSON) for two versions of one bundle.
    public var fromBundle: String?
    /// The bundle `to` is a version of, when the diff compares two bundles.
    public var toBundle: String?
    /// The document's changes, in document order.
    public var changes: [JSONChange]
    /// Blobs added and removed, by digest.
    public var blobs: [BlobChange]

    /// Whether the two versions hold the same document and blobs.
    public var isEmpty: Bool { changes.isEmpty && blobs.isEmpty }

    /// Compares the versions named `from` and `to` (default: the head) of the bundle at `url`.
    public init(of url: URL, from: String, to: String? = nil) throws {
        let bundle = try DocumentBundle(contentsOf: url)
        let old = try bundle.version(named: from)
        let new = try to.map(bundle.version(named:)) ?? bundle.headVersion
        self.from = VersionSummary(old)
        self.to = VersionSummary(new)
        (changes, blobs) = try Self.changes(from: (bundle, old), to: (bundle, new))
    }

    /// Compares the version named `oldVersion` (default: the head) of the bundle at `oldURL`
    /// with `newVersion` (default: the head) of the bundle at `newURL`: two copies of a
    /// project, or any two bundles. Blobs are compared by digest, as within one bundle.
    public init(from oldURL: URL, version oldVersion: String? = nil, to newURL: URL, version newVersion: String? = nil)
        throws
    {
        let oldBundle = try DocumentBundle(contentsOf: oldURL)
        let newBundle = try DocumentBundle(contentsOf: newURL)
        let old = try oldVersion.map(oldBundle.version(named:)) ?? oldBundle.headVersion
        let new = try newVersion.map(newBundle.version(named:)) ?? newBundle.headVersion
        from = VersionSummary(old)
        to = VersionSummary(new)
        fromBundle = oldURL.relativePath
        toBundle = newURL.relativePath
        (changes, blobs) = try Self.changes(from: (oldBundle, old), to: (newBundle, new))
    }

    /// The changes from `old` (nothing: an empty document without blobs, when `nil`) to
    /// `new`, each a version of its bundle.
    ///
    /// `document` reads a version's document (by default as
    /// ``DocumentBundle/documentDataForParsing(of:)`` does), for a caller that holds one.
    package static func changes(
        from old: (bundle: DocumentBundle, version: BundleVersion)?,
        to new: (bundle: DocumentBundle, version: BundleVersion),
        document: (DocumentBundle, BundleVersion) throws -> Data = { try $0.documentDataForParsing(of: $1) }
    ) throws -> ([JSONChange], [BlobChange]) {
        let oldTree = try old.map { try $0.bundle.tree(of: $0.version) }
        let newTree = try new.bundle.tree(of: new.version)
        guard let old, let oldTree else {
            let changes = try JSONValue.changes(from: Data("{}".utf8), to: document(new.bundle, new.version))
            return (changes, BlobChange.changes(from: FileWrapper(directoryWithFileWrappers: [:]), to: newTree))
        }
        // Equal trees are equal content, whichever bundle holds them (trees are named by digest).
        if old.version.tree == new.version.tree { return ([], []) }
        // Compared as text: only what differs is parsed, not two trees of the documents.
        let changes = try JSONValue.changes(
            from: document(old.bundle, old.version), to: document(new.bundle, new.version))
        return (changes, BlobChange.changes(from: oldTree, to: newTree))
    }
}
