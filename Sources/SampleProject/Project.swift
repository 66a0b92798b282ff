import DocumentKit
import Foundation

/// The built-in sample document: a project with tasks, a board of columns, drafts and a
/// thumbnail, in the current schema (`ProjectSchemaV4`, `4.0.0`).
///
/// Stored as `document.json` in a `.dkproj` bundle; the thumbnail is a blob beside it.
/// Tasks, columns and drafts are identified by their UUIDs, never by their position.
/// Bundles written with an older schema are migrated in memory when read
/// (`ProjectMigrationPlan`). Columns own tasks and tasks wait for other tasks; the library
/// keeps both sides of those relationships consistent and applies their delete rules in
/// every write transaction (see `Project.relationships`).
///
/// ```swift
/// var project = Project(name: "Garden")
/// project.tasks.append(ProjectTask(title: "Buy seeds", priority: .high))
/// try DocumentController(newDocument: project, at: url).save(message: "Start", author: "Ada")
/// ```
public typealias Project = ProjectSchemaV4.Project

/// One task of a `Project`, in the current schema (`ProjectSchemaV4`).
public typealias ProjectTask = ProjectSchemaV4.ProjectTask

/// One column of a `Project`'s board, in the current schema (`ProjectSchemaV4`).
public typealias ProjectColumn = ProjectSchemaV4.ProjectColumn

/// One draft of a `Project`, in the current schema (`ProjectSchemaV4`).
public typealias ProjectDraft = ProjectSchemaV4.ProjectDraft
