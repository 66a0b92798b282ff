import Foundation

/// What a document is written for.
public struct WriteConfiguration {
    /// The content type to write.
    public let contentType: ContentType
    /// The tree as last saved, or `nil` for a new document.
    public let existingFile: FileWrapper?

    public init(contentType: ContentType, existingFile: FileWrapper?) {
        self.contentType = contentType
        self.existingFile = existingFile
    }
}
