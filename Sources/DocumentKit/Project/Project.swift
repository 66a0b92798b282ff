import Foundation

/// The built-in sample document: a project with tasks and a thumbnail, in the current
/// schema (`ProjectSchemaV3`, `3.0.0`).
///
/// Stored as `document.json` in a `.dkproj` bundle; the thumbnail is a blob beside it.
/// Tasks are identified by their UUIDs, never by their position. Bundles written with an
/// older schema are migrated in memory when read (`ProjectMigrationPlan`).
///
/// ```swift
/// var project = Project(name: "Garden")
/// project.tasks.append(ProjectTask(title: "Buy seeds", priority: .high))
/// try DocumentController(newDocument: project, at: url).save(message: "Start")
/// ```
public typealias Project = ProjectSchemaV3.Project

/// One task of a `Project`, in the current schema (`ProjectSchemaV3`).
public typealias ProjectTask = ProjectSchemaV3.ProjectTask

/// The Project schema `3.0.0`, the one this build writes: a task's `status` (to do, in
/// progress, done) replaces 2.0.0's `isComplete`, by a custom stage.
///
/// When a 4.0.0 comes, these types stay as they are (they are what 3.0.0 documents are)
/// and `Project` names the new version's.
public enum ProjectSchemaV3: VersionedSchema {
    public static let versionIdentifier = SchemaVersion(3, 0, 0)
    public typealias Model = Project

    /// A project; see the `Project` type alias.
    public struct Project: CodableDocument, Equatable {
        /// The `.dkproj` bundle type.
        public static let contentType = ContentType(
            identifier: "org.documentkit.project", filenameExtensions: ["dkproj"],
            mimeType: "application/vnd.documentkit.project+zip", conformsTo: [.documentBundle])
        public static var migrationPlan: (any SchemaMigrationPlan.Type)? { ProjectMigrationPlan.self }
        public static let defaultAttachmentPath: String? = "thumbnail"

        /// The project's name; not empty.
        public var name: String
        /// When the project was created (UTC, whole seconds).
        public var createdAt: Date
        /// Whether the project is finished and kept only for reference.
        public var isArchived: Bool
        /// What the project is about; `""` for nothing.
        public var summary: String
        /// The tasks, in the order the user keeps them.
        public var tasks: [ProjectTask]
        /// A picture of the project, stored beside the document.
        public var thumbnail: BlobReference?

        public init(name: String, createdAt: Date = DocumentDates.now(), isArchived: Bool = false, summary: String = "",
                    tasks: [ProjectTask] = [], thumbnail: BlobReference? = nil) {
            self.name = name
            self.createdAt = createdAt
            self.isArchived = isArchived
            self.summary = summary
            self.tasks = tasks
            self.thumbnail = thumbnail
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case name, createdAt, isArchived, summary, tasks, thumbnail
        }

        /// Decodes strictly (unknown fields are refused) and completes what a user may leave
        /// out: `createdAt` becomes now, `isArchived` false, `summary` empty, `tasks` empty.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt) ?? decoder.documentNow
            isArchived = try container.decodeIfPresent(Bool.self, forKey: .isArchived) ?? false
            summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
            tasks = try container.decodeIfPresent([ProjectTask].self, forKey: .tasks) ?? []
            thumbnail = try container.decodeIfPresent(BlobReference.self, forKey: .thumbnail)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(isArchived, forKey: .isArchived)
            try container.encode(summary, forKey: .summary)
            try container.encode(tasks, forKey: .tasks)
            try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
        }

        /// Rules beyond the schema: a name, titles and tags that are not blank, unique task ids.
        public func validate() throws {
            if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw DocumentKitError(.invalidDocument, "must not be empty", location: "name")
            }
            var seen = Set<UUID>()
            for (index, task) in tasks.enumerated() {
                if task.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    throw DocumentKitError(.invalidDocument, "must not be empty", location: "tasks[\(index)].title")
                }
                if let blank = task.tags.firstIndex(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }) {
                    throw DocumentKitError(.invalidDocument, "must not be empty", location: "tasks[\(index)].tags[\(blank)]")
                }
                if !seen.insert(task.id).inserted {
                    throw DocumentKitError(.invalidDocument, "\(task.id) is used by another task", location: "tasks[\(index)].id")
                }
            }
        }
    }
}
