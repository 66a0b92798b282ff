import Foundation

/// Turns `Codable` values into the property-list objects `UserDefaults` stores natively,
/// and back, through `PropertyListEncoder` and `PropertyListDecoder`.
///
/// Property lists have no top-level scalars (`PropertyListEncoder` refuses to encode a
/// lone `String`), so each value travels as the single element of an array.
package enum PropertyListValue {
    /// The property-list object for `value`: a `String`, number, `Date`, `Data`, array or dictionary.
    package static func encode<T: Encodable>(_ value: T, key: String) throws -> Any {
        do {
            let data = try PropertyListEncoder().encode([value])
            guard let wrapped = try PropertyListSerialization.propertyList(from: data, format: nil) as? [Any],
                wrapped.count == 1
            else {
                throw DocumentKitError(.invalidDocument, "the property list encoder returned no value")
            }
            return wrapped[0]
        } catch {
            throw DocumentKitError(
                .invalidDocument, "cannot be stored in UserDefaults: \(reason(error))", location: "key '\(key)'")
        }
    }

    /// The `T` that the property-list `object` holds, or a mismatch error naming `key`.
    package static func decode<T: Decodable>(_ type: T.Type, from object: Any, key: String) throws -> T {
        if let value = object as? T, isNative(T.self) { return value }
        do {
            let data = try PropertyListSerialization.data(fromPropertyList: [object], format: .binary, options: 0)
            return try PropertyListDecoder().decode([T].self, from: data)[0]
        } catch {
            var (path, message) = DecodingErrorDescription.locate(error)
            // Leave out the array the value travelled in: `[0].x` is the value's `x`.
            path = path.map { String($0.dropFirst(3).drop { $0 == "." }) }
            throw DocumentKitError.storedValueMismatch(
                key: key, expected: T.self, found: describe(object),
                reason: (path, message), path: nil)
        }
    }

    /// Types a plain cast reads exactly; numbers are not among them, because a cast would
    /// read `true` as the integer 1 where a decoder refuses it.
    private static func isNative(_ type: Any.Type) -> Bool {
        type == String.self || type == Date.self || type == Data.self
    }

    /// `"zip" (a string)`, `42 (a number)`: what a message says was found.
    package static func describe(_ object: Any) -> String {
        switch object {
        case let bool as Bool: return "\(bool) (a boolean)"
        case let string as String: return KeyValueCodec.describe(.string(string))
        case let integer as Int: return "\(integer) (a number)"
        case let double as Double: return "\(double) (a number)"
        case let date as Date: return "\(DocumentDates.format(date)) (a date)"
        case let data as Data: return "\(data.count) bytes (data)"
        case is [Any]: return "[…] (an array)"
        case is [AnyHashable: Any]: return "{…} (a dictionary)"
        case let number as NSNumber: return "\(number) (a number)"
        default: return "a value of type \(String(describing: Swift.type(of: object)))"
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let error = error as? DocumentKitError { return error.message }
        if let error = error as? EncodingError, case .invalidValue(_, let context) = error {
            return context.debugDescription
        }
        return "\(error)"
    }
}
