import Foundation

extension JSONValue {
    /// The value the open `descriptor` (standard input) holds up to its end: its JSON text,
    /// or with `asString`, the text itself as a string, without one final line break
    /// (`echo` adds one). Refused past the size of a document; messages name the stream
    /// `name`.
    public static func read(
        fromFileDescriptor descriptor: Int32, named name: String = "standard input", asString: Bool = false
    ) throws -> JSONValue {
        let data = try ByteStream(descriptor: descriptor, name: name).readAll(
            limit: Int(BundleLimits.default.maxDocumentBytes))
        if asString {
            guard var text = String(data: data, encoding: .utf8) else {
                throw DocumentKitError(.malformedInput, "is not UTF-8 text", path: name)
            }
            // "\r\n" is one Character in Swift: either way one removal drops the line break.
            if text.hasSuffix("\n") || text.hasSuffix("\r\n") { text.removeLast() }
            return .string(text)
        }
        return try DocumentKitError.located(at: name) { try parse(data) }
    }
}
