import Foundation

/// What a document is read from.
public struct ReadConfiguration {
    /// The content type of the bundle being read.
    public let contentType: ContentType
    /// The root of the version's file tree; file contents load when asked for.
    public let file: FileWrapper
    /// The version being read, or `nil` for a tree that does not come from a bundle.
    public let version: BundleVersion?

    public init(contentType: ContentType, file: FileWrapper, version: BundleVersion? = nil) {
        self.contentType = contentType
        self.file = file
        self.version = version
    }
}
