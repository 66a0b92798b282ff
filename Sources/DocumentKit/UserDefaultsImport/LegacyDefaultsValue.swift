import Foundation

/// One value of an exported defaults domain, whichever format it came in: the kinds the
/// known keys take (strings, dates, arrays of them) as themselves, every other kind only
/// as what an error message says was found.
package enum LegacyDefaultsValue: Equatable {
    case string(String)
    case date(Date)
    case array([LegacyDefaultsValue])
    /// A number, boolean, data, dictionary or null: no known key takes one. The text is
    /// how a message describes it, e.g. `42 (a number)`.
    case other(String)

    /// A value of a property list as `PropertyListSerialization` returns it.
    package init(propertyList object: Any) {
        // Checked before anything else: on Linux an integer 0 or 1 also casts to `Bool`,
        // and on Apple platforms a boolean is an `NSNumber`; only a real `Bool` is one here.
        if type(of: object) == Bool.self, let bool = object as? Bool {
            self = .other("\(bool) (a boolean)")
            return
        }
        switch object {
        case let string as String: self = .string(string)
        case let date as Date: self = .date(date)
        case let array as [Any]: self = .array(array.map(LegacyDefaultsValue.init(propertyList:)))
        case let data as Data: self = .other("\(data.count) bytes (data)")
        case is [AnyHashable: Any]: self = .other("{…} (a dictionary)")
        case let number as NSNumber:
            // `c` is how Apple platforms' CFBoolean reports itself.
            self = .other(
                String(cString: number.objCType) == "c" ? "\(number.boolValue) (a boolean)" : "\(number) (a number)")
        default: self = .other("a value of type \(String(describing: Swift.type(of: object)))")
        }
    }

    /// A value of a JSON export. Times are strings in JSON; they are read as dates where
    /// a date is expected.
    package init(json: JSONValue) {
        switch json {
        case .string(let string): self = .string(string)
        case .array(let elements): self = .array(elements.map(LegacyDefaultsValue.init(json:)))
        case .object: self = .other("{…} (a dictionary)")
        default: self = .other(KeyValueCodec.describe(json))
        }
    }

    /// `"Hello" (a string)`, `[…] (an array)`: what a message says was found.
    package var found: String {
        switch self {
        case .string(let string): KeyValueCodec.describe(.string(string))
        case .date(let date): "\(DocumentDates.format(date)) (a date)"
        case .array: "[…] (an array)"
        case .other(let description): description
        }
    }
}
