import DocumentKit

/// Runs one library call on fuzzed input: its result, or `nil` when it refused the input
/// with the error DocumentKit documents for every operation, `DocumentKitError`. Any other
/// error type (a `DecodingError`, an `ArchiveError` that escaped its layer, a private
/// error of a helper) is a finding, as a crash is: an app catching `DocumentKitError`, as
/// the documentation tells it to, would not catch it.
public func refusing<Result>(_ call: String, _ body: () throws -> Result) -> Result? {
    do {
        return try body()
    } catch is DocumentKitError {
        return nil
    } catch {
        fatalError("\(call) refused its input with \(type(of: error)), not DocumentKitError: \(error)")
    }
}
