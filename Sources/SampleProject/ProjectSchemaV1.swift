import DocumentKit
import Foundation

/// The Project schema as DocumentKit 0.1.0 shipped it, `1.0.0`. Frozen: bundles written
/// with it exist, and `ProjectMigrationPlan` reads them through these types.
public enum ProjectSchemaV1: VersionedSchema {
    public static let versionIdentifier = SchemaVersion(1, 0, 0)
    public typealias Model = Project

    /// A project: a name, tasks and a thumbnail.
    public struct Project: Codable, Equatable {
        public var name: String
        public var createdAt: Date
        public var isArchived: Bool
        public var tasks: [ProjectTask]
        public var thumbnail: BlobReference?

        public init(
            name: String, createdAt: Date, isArchived: Bool = false, tasks: [ProjectTask] = [],
            thumbnail: BlobReference? = nil
        ) {
            self.name = name
            self.createdAt = createdAt
            self.isArchived = isArchived
            self.tasks = tasks
            self.thumbnail = thumbnail
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case name, createdAt, isArchived, tasks, thumbnail
        }

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
    }

    /// A task, done or not.
    public struct ProjectTask: Codable, Equatable, Identifiable {
        /// How urgent a task is; unchanged since 1.0.0, so later schemas use this type too.
        public enum Priority: String, Codable, CaseIterable, Sendable {
            case low, medium, high
        }

        public var id: UUID
        public var title: String
        public var isComplete: Bool
        public var dueDate: Date?
        public var priority: Priority
        public var notes: String
        public var attachments: [BlobReference]

        public init(
            id: UUID, title: String, isComplete: Bool = false, dueDate: Date? = nil,
            priority: Priority = .medium, notes: String = "", attachments: [BlobReference] = []
        ) {
            self.id = id
            self.title = title
            self.isComplete = isComplete
            self.dueDate = dueDate
            self.priority = priority
            self.notes = notes
            self.attachments = attachments
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, title, isComplete, dueDate, priority, notes, attachments
        }

        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(UUID.self, forKey: .id) ?? decoder.makeIdentifier()
            title = try container.decode(String.self, forKey: .title)
            isComplete = try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? false
            dueDate = try container.decodeIfPresent(Date.self, forKey: .dueDate)
            notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
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
            if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
        }
    }
}

extension ProjectSchemaV1.ProjectTask.Priority {
    /// The priority at `key`, in any letter case (`High`); `medium` when absent.
    static func decode<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Self {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return .medium }
        guard let priority = Self(rawValue: text.lowercased()) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "'\(text)' is not a priority (low, medium or high)")
        }
        return priority
    }
}
