import DocumentKitCore

/// A JSON value as the diff sees it. Two kinds exist: a `JSONValue` tree, and a range
/// of checked JSON text that is read only where the diff looks (`JSONTextDiff.swift`).
/// Both go through the one algorithm below, so they report the same changes.
package protocol JSONDiffOperand {
    /// What reading the value can throw: `Never` for a tree.
    associatedtype Failure: Error

    /// Whether `self` and `other` are certainly equal. `false` promises nothing: the diff
    /// then looks inside, and finds no change if the values are equal after all.
    func isCertainlyEqual(to other: Self) -> Bool
    /// The members, if this is an object other than a blob reference (`{"$blob": …}`).
    func members() throws(Failure) -> [String: Self]?
    /// The elements, if this is an array.
    func elements() throws(Failure) -> [Self]?
    /// The `id` member's string, if this is an object whose `id` is a string.
    func identity() throws(Failure) -> String?
    /// The whole value.
    func value() throws(Failure) -> JSONValue
}
