import Foundation

/// A type that reads itself from, and writes itself to, a file tree, like SwiftUI's
/// `FileDocument`. DocumentKit stores that tree in a bundle, one version per save.
///
/// Most documents are plain `Codable` values and adopt `CodableDocument` instead, which
/// implements this protocol for them.
public protocol FileDocument {
    /// The types this document can be read from.
    static var readableContentTypes: [ContentType] { get }
    /// The types this document can be written as; by default the readable ones.
    static var writableContentTypes: [ContentType] { get }
    /// The version of the document's layout this build writes, recorded in every version.
    /// Reading a version recorded with another schema is up to the type (see
    /// `ReadConfiguration.version`); `CodableDocument` migrates older ones.
    static var schemaVersion: SchemaVersion { get }
    /// Reads the document from a version's file tree.
    init(configuration: ReadConfiguration) throws
    /// Produces the file tree to save. Return children of `configuration.existingFile`
    /// for what did not change: the bundle then neither re-reads nor re-hashes them.
    func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper
}

extension FileDocument {
    public static var writableContentTypes: [ContentType] { readableContentTypes }
    public static var schemaVersion: SchemaVersion { SchemaVersion(1, 0, 0) }
}
