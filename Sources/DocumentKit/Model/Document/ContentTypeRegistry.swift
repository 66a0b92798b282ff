import Foundation

/// The content types a program knows, looked up by identifier, extension or MIME type:
/// DocumentKit's own and those of the configuration's document types
/// (``DocumentKitConfiguration/contentTypes``).
public struct ContentTypeRegistry: Sendable {
    /// DocumentKit's own types.
    public static let builtIn = ContentTypeRegistry(types: [.data, .json, .zip, .png, .jpeg, .documentBundle])

    private var byIdentifier: [String: ContentType] = [:]

    public init(types: [ContentType] = []) {
        for type in types { byIdentifier[type.identifier] = type }
    }

    /// Adds `type`, replacing one with the same identifier.
    public mutating func register(_ type: ContentType) {
        byIdentifier[type.identifier] = type
    }

    public func type(identifier: String) -> ContentType? {
        byIdentifier[identifier]
    }

    /// The type whose extensions include `filenameExtension` (case-insensitive).
    public func type(filenameExtension: String) -> ContentType? {
        let wanted = filenameExtension.lowercased()
        return byIdentifier.values.sorted { $0.identifier < $1.identifier }.first {
            $0.filenameExtensions.contains(wanted)
        }
    }

    public func type(mimeType: String) -> ContentType? {
        byIdentifier.values.sorted { $0.identifier < $1.identifier }.first { $0.mimeType == mimeType }
    }
}
