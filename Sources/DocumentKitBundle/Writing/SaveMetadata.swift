import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// What a save records about itself.
public struct SaveMetadata: Sendable {
    /// Who saves.
    public var author: String
    /// Why.
    public var message: String
    /// When; defaults to now (or `SOURCE_DATE_EPOCH`).
    public var created: Date
    /// How the save stores the objects it adds.
    public var compression: ObjectCompression
    /// The key that signs the version's id, if any (FORMAT.md §5.4).
    public var signingKey: SigningKey?
    /// Whether to stop short of writing: the save runs every step and check, and returns
    /// the version it would add, but the bundle (or its new file) is not written.
    public var dryRun = false
    /// The layout a new bundle, or the save of an older one, is written in: format 3
    /// (FORMAT.md §12) by default, which upgrades a format-1 or 2 bundle; 2 keeps a new
    /// bundle, or one of format 1 or 2, readable by DocumentKit 0.3 and older. A format-3
    /// bundle stays in format 3.
    public var formatVersion = BundleManifest.currentFormatVersion

    // `compression` is not optional, so that `compression: .none` cannot mean "the default".
    public init(
        author: String, message: String = "", created: Date = DocumentDates.now(),
        compression: ObjectCompression = .zstd, signingKey: SigningKey? = nil
    ) {
        self.author = author
        self.message = message
        self.created = created
        self.compression = compression
        self.signingKey = signingKey
    }
}
