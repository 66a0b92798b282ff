import Foundation

/// A kind of file, like a `UTType`: an identifier, the filename extensions and MIME type
/// that name it, and the more general types it conforms to.
///
/// ```swift
/// let project = ContentType(identifier: "org.documentkit.project", filenameExtensions: ["dkproj"],
///                           mimeType: "application/vnd.documentkit.project+zip", conformsTo: [.documentBundle])
/// project.conforms(to: .zip)   // true, through .documentBundle
/// ```
public struct ContentType: Hashable, Sendable, CustomStringConvertible {
    /// A reverse-DNS identifier, unique among content types.
    public let identifier: String
    /// Filename extensions without the dot, preferred first.
    public let filenameExtensions: [String]
    /// The registered (or vendor) MIME type.
    public let mimeType: String
    /// The identifiers of the types this one directly conforms to.
    public let supertypes: [String]

    /// Creates a content type; a document type's is known to lookups by extension or MIME
    /// type through the configuration (``DocumentKitConfiguration/contentTypes``).
    public init(
        identifier: String, filenameExtensions: [String] = [], mimeType: String,
        conformsTo supertypes: [ContentType] = []
    ) {
        self.identifier = identifier
        self.filenameExtensions = filenameExtensions
        self.mimeType = mimeType
        self.supertypes = supertypes.map(\.identifier)
    }

    /// Whether this type is `other` or conforms to it through its supertypes.
    public func conforms(
        to other: ContentType, in registry: ContentTypeRegistry = DocumentKitConfiguration.current.contentTypes
    ) -> Bool {
        if self == other { return true }
        var pending = supertypes
        var seen: Set<String> = [identifier]
        while let next = pending.popLast() {
            if next == other.identifier { return true }
            guard seen.insert(next).inserted, let type = registry.type(identifier: next) else { continue }
            pending.append(contentsOf: type.supertypes)
        }
        return false
    }

    public var description: String { identifier }

    public static func == (lhs: ContentType, rhs: ContentType) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

extension ContentType {
    /// Any sequence of bytes.
    public static let data = ContentType(identifier: "public.data", mimeType: "application/octet-stream")
    /// JSON text.
    public static let json = ContentType(
        identifier: "public.json", filenameExtensions: ["json"], mimeType: "application/json", conformsTo: [.data])
    /// A zip archive.
    public static let zip = ContentType(
        identifier: "public.zip-archive", filenameExtensions: ["zip"], mimeType: "application/zip", conformsTo: [.data])
    /// A PNG image.
    public static let png = ContentType(
        identifier: "public.png", filenameExtensions: ["png"], mimeType: "image/png", conformsTo: [.data])
    /// A JPEG image.
    public static let jpeg = ContentType(
        identifier: "public.jpeg", filenameExtensions: ["jpg", "jpeg"], mimeType: "image/jpeg", conformsTo: [.data])
    /// Any DocumentKit bundle: a zip laid out as FORMAT.md describes.
    public static let documentBundle = ContentType(
        identifier: "org.documentkit.bundle", filenameExtensions: ["dkbundle"],
        mimeType: "application/vnd.documentkit.bundle+zip", conformsTo: [.zip])
}
