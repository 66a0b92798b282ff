import DocumentKit
import Foundation

/// How Project documents of every schema DocumentKit shipped become current ones.
///
/// | stage | kind | from → to | what |
/// |---|---|---|---|
/// | `v2-tags-and-summary` | lightweight | 1.0.0 → 2.0.0 | adds `summary` (`""`), tasks' `tags` (`[]`) |
/// | `v3-task-status` | custom | 2.0.0 → 3.0.0 | `isComplete` becomes `status`: `true` → `done`, else `todo` |
/// | `v4-board-and-drafts` | lightweight | 3.0.0 → 4.0.0 | adds `columns`, `drafts`, tasks' `column`, `blockedBy` |
///
/// Shipped stages never change; a new schema adds a stage at the end.
public enum ProjectMigrationPlan: SchemaMigrationPlan {
    public static var schemas: [any VersionedSchema.Type] {
        [ProjectSchemaV1.self, ProjectSchemaV2.self, ProjectSchemaV3.self, ProjectSchemaV4.self]
    }

    public static var stages: [MigrationStage] {
        [
            .lightweight(id: "v2-tags-and-summary", fromVersion: ProjectSchemaV1.self, toVersion: ProjectSchemaV2.self),
            .custom(
                id: "v3-task-status", fromVersion: ProjectSchemaV2.self, toVersion: ProjectSchemaV3.self,
                migrate: ProjectSchemaV3.Project.init(migrating:)),
            .lightweight(id: "v4-board-and-drafts", fromVersion: ProjectSchemaV3.self, toVersion: ProjectSchemaV4.self)
        ]
    }
}

extension ProjectSchemaV3.Project {
    /// A 2.0.0 project in 3.0.0: every field kept, each task's completion made a status.
    init(migrating old: ProjectSchemaV2.Project) {
        self.init(
            name: old.name, createdAt: old.createdAt, isArchived: old.isArchived, summary: old.summary,
            tasks: old.tasks.map(ProjectSchemaV3.ProjectTask.init(migrating:)), thumbnail: old.thumbnail)
    }
}

extension ProjectSchemaV3.ProjectTask {
    /// A 2.0.0 task in 3.0.0: complete is done, anything else still to do (2.0.0 could not
    /// say a task was started).
    init(migrating old: ProjectSchemaV2.ProjectTask) {
        self.init(
            id: old.id, title: old.title, status: old.isComplete ? .done : .todo, dueDate: old.dueDate,
            priority: old.priority, notes: old.notes, tags: old.tags, attachments: old.attachments)
    }
}
