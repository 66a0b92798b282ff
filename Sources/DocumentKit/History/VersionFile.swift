import Foundation

/// One file of a version, as `docctl ls` lists it: the document, a blob, or another file
/// of a `FileDocument`'s tree.
public struct VersionFile: Codable, Equatable, Sendable {
    /// What the file is to the document.
    public enum Kind: String, Codable, Sendable {
        /// `document.json`.
        case document
        /// A blob: a file of `blobs/`, named by its digest in the tree.
        case blob
        /// Any other file.
        case file
    }

    /// Its path as exports write it: blobs under the names they were attached with
    /// (`blobs/photo.png`; FORMAT.md §7, "Exports"), other files as in the tree.
    public var path: String
    /// Its path in the version's tree: `blobs/<digest>` for a blob.
    public var treePath: String
    public var kind: Kind
    /// Its size in bytes.
    public var size: UInt64
    /// The SHA-256 of its bytes, 64 hex digits: the name of its object.
    public var digest: String
    /// The media type the document records for a blob (`application/octet-stream` when it
    /// records none), `application/json` for the document, and for another file the one its
    /// extension suggests.
    public var mediaType: String
}
