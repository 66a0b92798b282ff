import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// What a version changed compared with its parent, recorded when it is saved so that
/// `docctl log` can say it without decoding and diffing two documents per version.
///
/// It is a summary: the document's changed paths (array elements named by their `id`),
/// and the blobs added and removed, up to ``limit`` items in all; `omitted` counts the
/// rest. `docctl diff` gives the values. Not part of the version's id: it is derived from
/// the version's tree and its parent's, which the id already covers.
public struct VersionChanges: Codable, Equatable, Sendable {
    /// One changed document path.
    public struct PathChange: Codable, Equatable, Sendable {
        public var kind: JSONChange.Kind
        /// The path, e.g. `tasks[id=6F9…].title`.
        public var path: String

        private enum CodingKeys: String, CodingKey, CaseIterable { case kind, path }

        /// The members a listed path has; a validator refuses any other.
        package static let memberNames = Set(CodingKeys.allCases.map(\.rawValue))
    }

    /// The document's changed paths, in document order.
    public var paths: [PathChange]
    /// Blobs added and removed, by digest.
    public var blobs: [BlobChange]
    /// How many more changes there were than listed.
    public var omitted: Int

    private enum CodingKeys: String, CodingKey, CaseIterable { case paths, blobs, omitted }

    /// The members a summary has; a validator refuses any other.
    package static let memberNames = Set(CodingKeys.allCases.map(\.rawValue))

    /// The most items (paths and blobs) a summary lists.
    public static let limit = 50

    /// Whether nothing is listed or omitted (a restore of the parent's own content).
    public var isEmpty: Bool { paths.isEmpty && blobs.isEmpty && omitted == 0 }

    /// Summarises `changes` and `blobs`, listing at most ``limit`` items, paths first.
    public init(changes: [JSONChange], blobs: [BlobChange]) {
        var list = JSONChangeList(limit: Self.limit)
        for change in changes { list.append(throwing: Never.self, change) }
        self.init(changes: list, blobs: blobs)
    }

    /// Summarises the changes a diff listed (at least ``limit`` of them when there were as
    /// many) and counted, and `blobs`.
    package init(changes: JSONChangeList, blobs: [BlobChange]) {
        let listedPaths = changes.listed.prefix(Self.limit)
        paths = listedPaths.map { PathChange(kind: $0.kind, path: $0.path) }
        self.blobs = Array(blobs.prefix(Self.limit - listedPaths.count))
        omitted = changes.count + blobs.count - paths.count - self.blobs.count
    }
}
