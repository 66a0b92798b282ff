import Foundation

/// What changed between two versions of a bundle: the document, path by path, and the
/// blobs stored beside it.
///
/// ```swift
/// let diff = try VersionDiff(of: url, from: "1", to: "head")
/// for change in diff.changes { print(change.kind, change.path) }
/// ```
public struct VersionDiff: Codable, Equatable, Sendable {
    public var from: VersionSummary
    public var to: VersionSummary
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
        let oldTree = try bundle.tree(of: old)
        let newTree = try bundle.tree(of: new)
        if old.tree == new.tree {
            changes = []
            blobs = []
            return
        }
        // Compared as text: only what differs is parsed, not two trees of the documents.
        changes = try JSONValue.changes(from: bundle.documentDataForParsing(of: old), to: bundle.documentDataForParsing(of: new))
        blobs = BlobChange.changes(from: oldTree, to: newTree)
    }
}
