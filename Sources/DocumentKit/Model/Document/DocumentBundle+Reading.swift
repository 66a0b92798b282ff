import Foundation

extension DocumentBundle {
    /// The content type the manifest names, if this build knows it.
    public var contentType: ContentType? {
        DocumentKitConfiguration.current.contentTypes.type(identifier: contentTypeIdentifier)
    }

    /// The content type the bundle records: the registered one, or else the manifest's
    /// identifier with the `mimetype` entry's MIME type.
    package var storedContentType: ContentType {
        contentType ?? ContentType(identifier: contentTypeIdentifier, mimeType: mimeType)
    }

    /// Reads `version` (by default the head) as a document of type `D`.
    public func read<D: FileDocument>(_ type: D.Type, version: BundleVersion? = nil) throws -> D {
        let version = version ?? headVersion
        let contentType = storedContentType
        guard D.readableContentTypes.contains(where: { contentType.conforms(to: $0) }) else {
            throw DocumentKitError(
                .unsupportedFormat, "holds \(contentTypeIdentifier), which \(D.self) cannot read",
                path: url.relativePath)
        }
        return try DocumentKitError.located(at: url.relativePath) {
            try D(
                configuration: ReadConfiguration(
                    contentType: contentType, file: try tree(of: version), version: version))
        }
    }
}
