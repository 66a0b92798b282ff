import DocumentKit
import Foundation

/// The Project schema `2.0.0`: 1.0.0 plus a project `summary` and task `tags`, both with
/// defaults, so 1.0.0 documents become 2.0.0 ones by a lightweight stage. Frozen.
public enum ProjectSchemaV2: VersionedSchema {
    public static let versionIdentifier = SchemaVersion(2, 0, 0)
    public typealias Model = Project

    /// A project: a name, a summary, tasks and a thumbnail.
    public struct Project: Codable, Equatable {
        public var name: String
        public var createdAt: Date
        public var isArchived: Bool
        /// What the project is about; `""` for nothing.
        public var summary: String
        public var tasks: [ProjectTask]
        public var thumbnail: BlobReference?

        public init(
            name: String, createdAt: Date, isArchived: Bool = false, summary: String = "",
            tasks: [ProjectTask] = [], thumbnail: BlobReference? = nil
        ) {
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
    }

    /// A task, done or not, with tags.
    public struct ProjectTask: Codable, Equatable, Identifiable {
        public typealias Priority = ProjectSchemaV1.ProjectTask.Priority

        public var id: UUID
        public var title: String
        public var isComplete: Bool
        public var dueDate: Date?
        public var priority: Priority
        public var notes: String
        /// Words to find and group tasks by, e.g. `shopping`.
        public var tags: [String]
        public var attachments: [BlobReference]

        public init(
            id: UUID, title: String, isComplete: Bool = false, dueDate: Date? = nil, priority: Priority = .medium,
            notes: String = "", tags: [String] = [], attachments: [BlobReference] = []
        ) {
            self.id = id
            self.title = title
            self.isComplete = isComplete
            self.dueDate = dueDate
            self.priority = priority
            self.notes = notes
            self.tags = tags
            self.attachments = attachments
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, title, isComplete, dueDate, priority, notes, tags, attachments
        }

        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(UUID.self, forKey: .id) ?? decoder.makeIdentifier()
            title = try container.decode(String.self, forKey: .title)
            isComplete = try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? false
            dueDate = try container.decodeIfPresent(Date.self, forKey: .dueDate)
            notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
            tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
            attachments = try container.decodeIfPresent([BlobReference].self, forKey: .attachments) ?? []
            priority = try Priority.decode(from: container, forKey: .priority)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(isComplete, forKey: .isComplete)
            try container.encodeIfPresent(dueDate, forKey: .dueDate)
            try container.encode(priority, forKey: .priority)
            try container.encode(notes, forKey: .notes)
            if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
            if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
        }
    }
}
