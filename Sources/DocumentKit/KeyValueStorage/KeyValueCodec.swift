import Foundation

/// How the JSON-backed storages (``PreferencesFile``, ``InMemoryStorage``) turn `Codable`
/// values into JSON values and back: the canonical encoder (so times are UTC seconds,
/// `2026-11-22T09:30:00Z`, and data is base64) and the decoder that reads what it writes.
package enum KeyValueCodec {
    /// `value` as a JSON value.
    package static func encode<T: Encodable>(_ value: T, key: String) throws -> JSONValue {
        if let json = value as? JSONValue { return json }
        do {
            return try JSONValue.parse(CanonicalJSONEncoder(pretty: false).encode(value))
        } catch {
            throw DocumentKitError(
                .invalidDocument, "cannot be stored as JSON: \(DecodingErrorDescription.describe(error))",
                location: "key '\(key)'")
        }
    }

    /// The `T` that `stored` holds; throws a mismatch error naming `key` (and `path`,
    /// the file it was read from) when it holds something else.
    package static func decode<T: Decodable>(_ type: T.Type, from stored: JSONValue, key: String, path: String?) throws
        -> T
    {
        if let json = stored as? T { return json }
        do {
            return try JSONValueDecoder().decode(T.self, from: stored)
        } catch {
            throw DocumentKitError.storedValueMismatch(
                key: key, expected: T.self, found: describe(stored),
                reason: DecodingErrorDescription.locate(error), path: path)
        }
    }

    /// `"zip" (a string)`, `42 (a number)`, `[…] (an array)`: what a message says was found.
    package static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .array: return "[…] (an array)"
        case .object: return "{…} (an object)"
        case .bool, .integer, .number, .string:
            var text = value.jsonText(pretty: false)
            if text.count > 40 { text = text.prefix(36) + "…" + (text.hasPrefix("\"") ? "\"" : "") }
            return "\(text) (a \(value.kindName))"
        }
    }
}

extension DocumentKitError {
    /// A stored value that is not of the type asked for: `key 'zoom': expected a number,
    /// found "large" (a string)`. Code `.malformedInput`: the store holds bad data.
    /// `reason` is the decoding error, located; it is shown only when it lies inside a
    /// structured value (`x: expected a number, found a string`), where it says more.
    package static func storedValueMismatch(
        key: String, expected: Any.Type, found: String,
        reason: (path: String?, message: String), path: String?
    ) -> DocumentKitError {
        var message = "expected \(StoredType.describe(expected)), found \(found)"
        if let inner = reason.path, !inner.isEmpty {
            message += " (\(inner): \(reason.message))"
        }
        return DocumentKitError(.malformedInput, message, path: path, location: "key '\(key)'")
    }
}
