import Foundation

/// What changed between two versions of a bundle: the document, path by path, and the
/// blobs stored beside it.
///
/// ```swift
/// let diff = try VersionDiff(of: url, from: "1", to: "head")
/// for change in diff.changes { print(change.kind, change.path) }
/// ```
public struct VersionDiff: Codable, Equatable, Sendable {
    /// A blob that one version holds and the other does not.
    public struct BlobChange: Codable, Equatable, Sendable {
        public enum Kind: String, Codable, Sendable { case added, removed }
        public var kind: Kind
        public var digest: String
        public var size: UInt64
    }

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
        blobs = Self.blobChanges(from: oldTree, to: newTree)
    }

    /// The blobs (files of the `blobs` folder) one tree has and the other has not.
    static func blobChanges(from old: FileWrapper, to new: FileWrapper) -> [BlobChange] {
        func sizes(_ tree: FileWrapper) -> [String: UInt64] {
            (tree[CodableDocumentLayout.blobsFolder]?.fileWrappers ?? [:]).mapValues { $0.fileSize ?? 0 }
        }
        let before = sizes(old), after = sizes(new)
        let removed = before.keys.filter { after[$0] == nil }.sorted().map { BlobChange(kind: .removed, digest: $0, size: before[$0]!) }
        let added = after.keys.filter { before[$0] == nil }.sorted().map { BlobChange(kind: .added, digest: $0, size: after[$0]!) }
        return removed + added
    }
}
