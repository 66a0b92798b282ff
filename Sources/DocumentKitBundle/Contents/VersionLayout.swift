import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON

/// The names every version's tree uses at its root (FORMAT.md §7): the document, and the
/// folder of blobs, each named by its digest.
public enum VersionLayout {
    /// The document's JSON, at the root of every version's tree.
    public static let documentName = "document.json"
    /// The folder holding the blobs, each named by its digest.
    public static let blobsFolder = "blobs"
}
