import Foundation

/// The `CodableDocument` types a program can edit generically (by JSON path, from the
/// command line), looked up by the content type a bundle's manifest names. None is
/// registered until the program registers its own (docctl registers the sample
/// `Project`).
public enum DocumentTypeRegistry {
    nonisolated(unsafe) private static var registered: [any CodableDocument.Type] = []
    private static let lock = NSLock()

    /// Makes `type` editable by content type; it replaces a type with the same identifier.
    public static func register(_ type: any CodableDocument.Type) {
        lock.withLock {
            registered.removeAll { $0.contentType == type.contentType }
            registered.append(type)
        }
        ContentTypeRegistry.shared.register(type.contentType)
    }

    /// Every registered type, in the order of registration.
    public static var all: [any CodableDocument.Type] { lock.withLock { registered } }

    /// The registered type for a content type identifier.
    public static func type(for identifier: String) -> (any CodableDocument.Type)? {
        lock.withLock { registered.first { $0.contentType.identifier == identifier } }
    }

    /// The registered type for a bundle, or an `unsupportedFormat` error naming its type.
    package static func type(of bundle: DocumentBundle) throws -> any CodableDocument.Type {
        guard let type = type(for: bundle.contentTypeIdentifier) else {
            throw DocumentKitError(.unsupportedFormat, "holds \(bundle.contentTypeIdentifier), a document type this build cannot edit", path: bundle.url.relativePath)
        }
        return type
    }
}
