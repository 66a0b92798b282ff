import Foundation

extension CodableDocument {
    public static var registeredContentTypeIdentifier: String { contentType.identifier }
}

extension DocumentKitConfiguration {
    /// The `CodableDocument` types the program can edit generically (by JSON path, from the
    /// command line), looked up by the content type a bundle's manifest names, in the order
    /// given; none unless the program names its own (docctl names the sample `Project`).
    /// Of two types with one content type, the later is kept.
    public var documentTypes: [any CodableDocument.Type] {
        get { registeredTypes.compactMap { $0 as? any CodableDocument.Type } }
        set {
            var kept: [any CodableDocument.Type] = []
            for type in newValue {
                kept.removeAll { $0.contentType == type.contentType }
                kept.append(type)
            }
            registeredTypes = kept
        }
    }

    /// DocumentKit's own content types and those of ``documentTypes``.
    public var contentTypes: ContentTypeRegistry {
        var registry = ContentTypeRegistry.builtIn
        for type in documentTypes { registry.register(type.contentType) }
        return registry
    }

    /// The document type for a content type identifier.
    public func documentType(for identifier: String) -> (any CodableDocument.Type)? {
        registeredTypes.first { $0.registeredContentTypeIdentifier == identifier } as? any CodableDocument.Type
    }

    /// The document type of a bundle, or an `unsupportedFormat` error naming its type.
    package func documentType(of bundle: DocumentBundle) throws -> any CodableDocument.Type {
        guard let type = documentType(for: bundle.contentTypeIdentifier) else {
            throw DocumentKitError(
                .unsupportedFormat, "holds \(bundle.contentTypeIdentifier), a document type this build cannot edit",
                path: bundle.url.relativePath)
        }
        return type
    }
}
