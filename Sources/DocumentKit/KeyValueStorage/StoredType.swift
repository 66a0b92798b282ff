import Foundation

/// Names a stored value's type for people: `a string`, `one of zip, tar, tar.gz`.
package enum StoredType {
    package static func describe(_ type: Any.Type) -> String {
        if let choices = type as? any (CaseIterable & RawRepresentable).Type {
            return "one of " + listing(names(of: choices))
        }
        switch type {
        case is Data.Type: return "base64 data"
        case is URL.Type: return "a URL"
        default: return DecodingErrorDescription.article(for: type)
        }
    }

    /// `a, b or c`.
    package static func listing(_ names: [String]) -> String {
        names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] : names.joined()
    }

    private static func names<Choice: CaseIterable & RawRepresentable>(of type: Choice.Type) -> [String] {
        Choice.allCases.map { "\($0.rawValue)" }
    }
}
