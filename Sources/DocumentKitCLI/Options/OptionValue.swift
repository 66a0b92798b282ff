import ArgumentParser
import DocumentKit

/// An option's value read by the library: its usage error then names the option and the
/// value, as the argument parser's own errors do (`the value 'x' is invalid for '--since
/// <date>': …`), and is a usage error (64) like them.
enum OptionValue {
    /// `value` converted by `convert`, or `nil` when the option was not given.
    static func parse<T>(_ value: String?, for option: String, valueName: String, _ convert: (String) throws -> T)
        throws -> T?
    {
        guard let value else { return nil }
        do {
            return try convert(value)
        } catch let error as DocumentKitError where error.code == .usage {
            throw ValidationError("the value '\(value)' is invalid for '\(option) <\(valueName)>': \(error.message)")
        }
    }
}
