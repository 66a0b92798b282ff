import Testing

/// The result of `body`, or `nil` when it refused its input with `documented`, the error
/// type its API promises; a refusal of any other type fails the test. For loops over
/// damaged or random input, where refusing is fine but a stray error type is a bug (an
/// app catching what the documentation names would not catch it).
func refusing<Result, Documented: Error>(
    _ documented: Documented.Type, _ what: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Result
) -> Result? {
    do {
        return try body()
    } catch is Documented {
        return nil
    } catch {
        Issue.record(
            "\(what()): refused with \(type(of: error)), not \(documented): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
