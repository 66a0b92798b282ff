import Foundation

/// The built-in sample document: a project with tasks and a thumbnail.
///
/// Stored as `document.json` in a `.dkproj` bundle; the thumbnail is a blob beside it.
/// Tasks are identified by their UUIDs, never by their position.
///
/// ```swift
/// var project = Project(name: "Garden")
/// project.tasks.append(ProjectTask(title: "Buy seeds", priority: .high))
/// try DocumentController(newDocument: project, at: url).save(message: "Start")
/// ```
public struct Project: CodableDocument, Equatable {
    /// The `.dkproj` bundle type.
    public static let contentType = ContentType(
        identifier: "org.documentkit.project", filenameExtensions: ["dkproj"],
        mimeType: "application/vnd.documentkit.project+zip", conformsTo: [.documentBundle])
    public static let schemaVersion = SchemaVersion(1, 0, 0)
    public static let defaultAttachmentPath: String? = "thumbnail"

    /// The project's name; not empty.
    public var name: String
    /// When the project was created (UTC, whole seconds).
    public var createdAt: Date
    /// Whether the project is finished and kept only for reference.
    public var isArchived: Bool
    /// The tasks, in the order the user keeps them.
    public var tasks: [ProjectTask]
    /// A picture of the project, stored beside the document.
    public var thumbnail: BlobReference?

    public init(name: String, createdAt: Date = DocumentDates.now(), isArchived: Bool = false,
                tasks: [ProjectTask] = [], thumbnail: BlobReference? = nil) {
        self.name = name
        self.createdAt = createdAt
        self.isArchived = isArchived
        self.tasks = tasks
        self.thumbnail = thumbnail
    }

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, createdAt, isArchived, tasks, thumbnail
    }

    /// Decodes strictly (unknown fields are refused) and completes what a user may leave
    /// out: `createdAt` becomes now, `isArchived` false, `tasks` empty.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt) ?? decoder.documentNow
        isArchived = try container.decodeIfPresent(Bool.self, forKey: .isArchived) ?? false
        tasks = try container.decodeIfPresent([ProjectTask].self, forKey: .tasks) ?? []
        thumbnail = try container.decodeIfPresent(BlobReference.self, forKey: .thumbnail)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(isArchived, forKey: .isArchived)
        try container.encode(tasks, forKey: .tasks)
        try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
    }

    /// Rules beyond the schema: a name and titles that are not blank, unique task ids.
    public func validate() throws {
        if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw DocumentKitError(.invalidDocument, "must not be empty", location: "name")
        }
        var seen = Set<UUID>()
        for (index, task) in tasks.enumerated() {
            if task.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                throw DocumentKitError(.invalidDocument, "must not be empty", location: "tasks[\(index)].title")
            }
            if !seen.insert(task.id).inserted {
                throw DocumentKitError(.invalidDocument, "\(task.id) is used by another task", location: "tasks[\(index)].id")
            }
        }
    }
}
