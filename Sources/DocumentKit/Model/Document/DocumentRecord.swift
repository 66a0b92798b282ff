import Foundation

/// One record of a document's collection (a task of a project, a column of its board):
/// a `Codable` value with a UUID, whose rules can be checked on their own.
///
/// Declaring a document's collections (`CodableDocument.recordCollections`) lets an edit
/// of one record decode, check and encode that record alone: changing one task of 20,000
/// costs one task, not the document (DESIGN.md, "Edits cost what they change").
///
/// ```swift
/// struct Card: DocumentRecord {
///     var id: UUID
///     var title: String
///     func ruleViolations() -> [RuleViolation] {
///         title.isEmpty ? [RuleViolation("title", "must not be empty")] : []
///     }
/// }
/// ```
public protocol DocumentRecord: Codable, Identifiable where ID == UUID {
    /// The rules the record breaks on its own, with paths relative to the record
    /// (`title`, `tags[2]`, or `""` for the record as a whole); by default none.
    func ruleViolations() -> [RuleViolation]
}

extension DocumentRecord {
    public func ruleViolations() -> [RuleViolation] { [] }
}

extension RuleViolation {
    /// The violation of a value found at `prefix`: its path made a path of the document.
    @usableFromInline
    package func inside(_ prefix: String) -> RuleViolation {
        var moved = self
        moved.path = path.isEmpty ? prefix : path.hasPrefix("[") ? prefix + path : "\(prefix).\(path)"
        return moved
    }

    /// `must not be empty` at `path` when `text` is blank: the rule most document types
    /// have for their names and titles.
    public static func blank(_ text: String, at path: String) -> RuleViolation? {
        // Most text starts with what is not white space: one look, instead of trimming
        // every title of a document.
        if let first = text.unicodeScalars.first, !CharacterSet.whitespacesAndNewlines.contains(first) { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            ? RuleViolation(path, "must not be empty") : nil
    }
}
