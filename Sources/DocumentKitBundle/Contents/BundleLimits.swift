import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// The bounds DocumentKit holds a bundle to while reading it, so that a hostile or broken
/// file costs bounded time and memory. Each is documented in FORMAT.md.
public struct BundleLimits: Sendable {
    /// Entry count and sizes for the zip container.
    public var archive: ArchiveLimits = .default
    /// The largest `manifest.json` read (bytes).
    public var maxManifestBytes: Int = 256 << 20
    /// The largest document or tree object decoded in memory (bytes).
    public var maxInMemoryObjectBytes: UInt64 = 1 << 30
    /// The largest document parsed into values (bytes): by edits, `get`, `diff`,
    /// `validate` and `import`. Parsing takes a few times the text's size, so a document
    /// of this size keeps them within about 4 times its size and 64 MiB; a larger one is
    /// refused, by its recorded size, before it is read. `cat` and `export` only copy a
    /// document, and read it up to `maxInMemoryObjectBytes`.
    public var maxDocumentBytes: UInt64 = 64 << 20
    /// The deepest JSON nesting accepted in a manifest, tree or document.
    public var maxJSONDepth: Int = JSONDepth.defaultLimit
    /// The deepest folder nesting accepted in a version's tree.
    public var maxTreeDepth: Int = 64
    /// The most files and folders a version's tree may hold, counted once per path (a
    /// folder object named twice counts twice): as many as an archive may hold, so every
    /// version can be exported and imported again.
    public var maxTreeEntries: Int = 1_000_000
    /// The most versions a manifest may list.
    public var maxVersions: Int = 1_000_000
    /// The largest `state.json` read or written (bytes): state is a few settings, not data.
    public var maxStateBytes: Int = 1 << 20

    /// Why a document of `size` bytes is not parsed, for an error message.
    package func documentTooLarge(_ size: UInt64) -> String {
        let mebibytes = Double(size) / Double(1 << 20)
        return
            """
            the document is \(String(format: "%.1f", mebibytes)) MiB; documents larger than \
            \(maxDocumentBytes >> 20) MiB are not parsed (FORMAT.md, Limits)
            """
    }

    /// The limits every operation uses unless told otherwise.
    public static let `default` = BundleLimits()

    public init() {}
}
