import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// The fixed entry names of a bundle.
public enum BundleEntry {
    /// First entry, stored: the bundle's MIME type, so tools such as `file` recognise it.
    public static let mimetype = "mimetype"
    /// The head version's document JSON, plain, for other tools.
    public static let document = "document.json"
    /// The manifest: format, versions, objects.
    public static let manifest = "manifest.json"
    /// The bundle's state (see ``BundleState``): optional, last, outside every version.
    public static let state = "state.json"
    /// The prefix of every object entry.
    public static let objectsPrefix = "objects/"
    /// The folder of a format-3 bundle's history segments (FORMAT.md §12.2).
    public static let historyPrefix = "history/"
}
