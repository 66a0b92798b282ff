import Foundation

/// A document type a configuration can hold: every `CodableDocument` is one. It exists
/// because the configuration is known to the layers below the one that defines documents.
public protocol RegisteredDocumentType: SendableMetatype {
    /// The identifier of the content type of the type's bundles.
    static var registeredContentTypeIdentifier: String { get }
}
