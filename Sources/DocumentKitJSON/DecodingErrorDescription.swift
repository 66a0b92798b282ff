import DocumentKitCore
import Foundation

/// Turns Swift's decoding errors into one line a user can act on:
/// `tasks[2].title: expected a string, found a number`.
package enum DecodingErrorDescription {
    package static func describe(_ error: any Error) -> String {
        let (path, message) = locate(error)
        return path.map { "\($0): \(message)" } ?? message
    }

    /// The JSON path a decoding error is at (if any) and what is wrong there.
    package static func locate(_ error: any Error) -> (path: String?, message: String) {
        let text = describeUnlocated(error)
        guard let error = error as? DecodingError else { return (nil, text) }
        let codingPath: [any CodingKey]
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            codingPath = context.codingPath
        case .keyNotFound(let key, let context): codingPath = context.codingPath + [key]
        @unknown default: codingPath = []
        }
        let location = path(codingPath)
        return (location.isEmpty ? nil : location, text)
    }

    private static func describeUnlocated(_ error: any Error) -> String {
        guard let error = error as? DecodingError else {
            if let error = error as? DocumentKitError { return error.message }
            return "\(error)"
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "expected \(article(for: type)), \(foundDescription(context.debugDescription))"
        case .valueNotFound(let type, _):
            return "expected \(article(for: type)), found null"
        case .keyNotFound:
            return "required field is missing"
        case .dataCorrupted(let context):
            return cleaned(context.debugDescription)
        @unknown default:
            return "\(error)"
        }
    }

    /// `tasks[2].title` for a coding path.
    package static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == String(index) || key.stringValue.hasPrefix("Index ") {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    package static func article(for type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is Date.Type: return "a date"
        case is UUID.Type: return "a UUID"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "a value of type \(name)"
        }
    }

    private static func foundDescription(_ debug: String) -> String {
        // Foundation says e.g. "Expected to decode String but found number instead."
        if let range = debug.range(of: "but found ") {
            let rest = debug[range.upperBound...].replacingOccurrences(of: " instead.", with: "")
            return "found \(rest)"
        }
        return cleaned(debug)
    }

    private static func cleaned(_ debug: String) -> String {
        debug.hasSuffix(".") ? String(debug.dropLast()) : debug
    }
}
