import DocumentKit
import Foundation

extension ProjectSchemaV4.Project {
    /// Columns own tasks: a task's `column` and the column's `tasks` name each other, and
    /// deleting a column deletes the tasks on it (cascade) while deleting a task takes it
    /// off its column (nullify). Tasks wait for tasks: deleting a task others are
    /// `blockedBy` is refused (deny) until they stop waiting for it.
    public static var relationships: [DocumentRelationship<Self>] {
        [
            DocumentRelationship(
                "column.tasks", from: \.columns, named: "columns", via: \.tasks, named: "tasks",
                to: \.tasks, named: "tasks", inverse: \.column, named: "column",
                deleteRule: .cascade, inverseDeleteRule: .nullify),
            DocumentRelationship(
                "task.blockedBy", from: \.tasks, named: "tasks", via: \.blockedBy, named: "blockedBy",
                to: \.tasks, named: "tasks",
                deleteRule: .nullify, inverseDeleteRule: .deny)
        ]
    }

    /// Tasks, columns and drafts: each checked on its own (see their `ruleViolations()`),
    /// with ids unique within each collection.
    public static var recordCollections: [RecordCollection<Self>] {
        [
            RecordCollection("tasks", \.tasks, recordName: "task"),
            RecordCollection("columns", \.columns, recordName: "column"),
            RecordCollection("drafts", \.drafts, recordName: "draft")
        ]
    }

    /// The project's own rule: a name that is not blank. Its records' rules are theirs.
    public func ruleViolations() -> [RuleViolation] {
        [RuleViolation.blank(name, at: "name")].compactMap { $0 }
    }
}

extension ProjectSchemaV4.ProjectTask: DocumentRecord {
    /// A title and tags that are not blank, and no waiting for itself.
    public func ruleViolations() -> [RuleViolation] {
        var broken = [RuleViolation.blank(title, at: "title")].compactMap { $0 }
        if let blank = tags.firstIndex(where: { RuleViolation.blank($0, at: "") != nil }) {
            broken.append(RuleViolation("tags[\(blank)]", "must not be empty"))
        }
        if let own = blockedBy.firstIndex(of: id) {
            broken.append(RuleViolation("blockedBy[\(own)]", "a task cannot wait for itself"))
        }
        return broken
    }
}

extension ProjectSchemaV4.ProjectColumn: DocumentRecord {
    /// A name that is not blank.
    public func ruleViolations() -> [RuleViolation] {
        [RuleViolation.blank(name, at: "name")].compactMap { $0 }
    }
}

extension ProjectSchemaV4.ProjectDraft: DocumentRecord {
    /// Content that is not blank.
    public func ruleViolations() -> [RuleViolation] {
        [RuleViolation.blank(content, at: "content")].compactMap { $0 }
    }
}
