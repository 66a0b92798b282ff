import Foundation

extension ProjectSchemaV4.Project {
    /// Columns own tasks: a task's `column` and the column's `tasks` name each other, and
    /// deleting a column deletes the tasks on it (cascade) while deleting a task takes it
    /// off its column (nullify). Tasks wait for tasks: deleting a task others are
    /// `blockedBy` is refused (deny) until they stop waiting for it.
    public static var relationships: [DocumentRelationship<Self>] {
        [
            DocumentRelationship("column.tasks", from: \.columns, named: "columns", via: \.tasks, named: "tasks",
                                 to: \.tasks, named: "tasks", inverse: \.column, named: "column",
                                 deleteRule: .cascade, inverseDeleteRule: .nullify),
            DocumentRelationship("task.blockedBy", from: \.tasks, named: "tasks", via: \.blockedBy, named: "blockedBy",
                                 to: \.tasks, named: "tasks",
                                 deleteRule: .nullify, inverseDeleteRule: .deny),
        ]
    }

    /// Rules beyond the schema: a name, titles, tags, column names and drafts that are not
    /// blank; ids unique among tasks, among columns and among drafts; no task waiting for
    /// itself.
    public func ruleViolations() -> [RuleViolation] {
        var broken: [RuleViolation] = []
        func notBlank(_ text: String, _ path: String) {
            if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { broken.append(RuleViolation(path, "must not be empty")) }
        }
        func unique<Record: Identifiable>(_ records: [Record], _ key: String, _ noun: String) where Record.ID == UUID {
            var seen = Set<UUID>()
            for (index, record) in records.enumerated() where !seen.insert(record.id).inserted {
                broken.append(RuleViolation("\(key)[\(index)].id", "\(record.id) is used by another \(noun)"))
            }
        }
        notBlank(name, "name")
        for (index, task) in tasks.enumerated() {
            notBlank(task.title, "tasks[\(index)].title")
            if let blank = task.tags.firstIndex(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
                broken.append(RuleViolation("tasks[\(index)].tags[\(blank)]", "must not be empty"))
            }
            if let own = task.blockedBy.firstIndex(of: task.id) {
                broken.append(RuleViolation("tasks[\(index)].blockedBy[\(own)]", "a task cannot wait for itself"))
            }
        }
        unique(tasks, "tasks", "task")
        for (index, column) in columns.enumerated() { notBlank(column.name, "columns[\(index)].name") }
        unique(columns, "columns", "column")
        for (index, draft) in drafts.enumerated() { notBlank(draft.content, "drafts[\(index)].content") }
        unique(drafts, "drafts", "draft")
        return broken
    }
}
