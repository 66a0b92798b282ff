import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A blob that one version holds and the other does not.
public struct BlobChange: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable { case added, removed }
    public var kind: Kind
    public var digest: String
    public var size: UInt64

    private enum CodingKeys: String, CodingKey, CaseIterable { case kind, digest, size }

    /// The members a listed blob has; a validator refuses any other.
    package static let memberNames = Set(CodingKeys.allCases.map(\.rawValue))

    /// The blobs (files of the `blobs` folder) one tree has and the other has not.
    public static func changes(from old: FileWrapper, to new: FileWrapper) -> [BlobChange] {
        func sizes(_ tree: FileWrapper) -> [String: UInt64] {
            (tree[VersionLayout.blobsFolder]?.fileWrappers ?? [:]).mapValues { $0.fileSize ?? 0 }
        }
        let before = sizes(old)
        let after = sizes(new)
        let removed = before.keys.filter { after[$0] == nil }.sorted().map {
            BlobChange(kind: .removed, digest: $0, size: before[$0]!)
        }
        let added = after.keys.filter { before[$0] == nil }.sorted().map {
            BlobChange(kind: .added, digest: $0, size: after[$0]!)
        }
        return removed + added
    }
}
