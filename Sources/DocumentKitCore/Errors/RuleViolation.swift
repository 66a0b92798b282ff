/// One rule a document breaks, at a JSON path: what a refused write transaction lists,
/// one per broken rule, in `DocumentKitError.violations`.
public struct RuleViolation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Where, as a JSON path of the document: `tasks[2].title`, or `columns[id=…]` for a
    /// record the transaction deleted.
    public var path: String
    /// What is wrong, e.g. `must not be empty`.
    public var message: String
    /// The kind of rule, as the validator's finding codes: `document.rule` (a rule of the
    /// type's own), `document.dangling-reference`, `document.inconsistent-relationship`,
    /// `document.delete-denied`, `document.missing-blob`.
    public var code: String

    public init(_ path: String, _ message: String, code: String = "document.rule") {
        self.path = path
        self.message = message
        self.code = code
    }

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension DocumentKitError {
    /// An `invalidDocument` error listing every violation: with one, its path is the
    /// error's location and its message the error's; with more, the message lists them all.
    public init(violations: [RuleViolation], path: String? = nil) {
        if violations.count == 1 {
            self.init(
                .invalidDocument, violations[0].message, path: path,
                location: violations[0].path.isEmpty ? nil : violations[0].path)
        } else {
            self.init(
                .invalidDocument,
                "\(violations.count) rules are broken: " + violations.map(\.description).joined(separator: "; "),
                path: path)
        }
        self.violations = violations
    }

    /// The rules this error reports broken: its `violations`, or itself as one violation
    /// when it is an `invalidDocument` error without a list.
    package var brokenRules: [RuleViolation] {
        if !violations.isEmpty { return violations }
        return [RuleViolation(location ?? "", message)]
    }
}
