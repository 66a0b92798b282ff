import DocumentKit
import Foundation

/// The Project schema `3.0.0`: a task's `status` (to do, in progress, done) replaces
/// 2.0.0's `isComplete`, by a custom stage. Frozen.
public enum ProjectSchemaV3: VersionedSchema {
    public static let versionIdentifier = SchemaVersion(3, 0, 0)
    public typealias Model = Project

    /// A project with tasks whose status is to do, in progress or done.
    public struct Project: Codable, Equatable {
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

        public init(
            name: String, createdAt: Date = DocumentDates.now(), isArchived: Bool = false, summary: String = "",
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
    }

    /// A task with a status.
    public struct ProjectTask: Codable, Equatable, Identifiable {
        /// How urgent a task is (unchanged since schema 1.0.0).
        public typealias Priority = ProjectSchemaV1.ProjectTask.Priority

        /// Where a task stands.
        public enum Status: String, Codable, CaseIterable, Sendable {
            /// Not started.
            case todo
            /// Started, not finished.
            case inProgress
            /// Finished.
            case done
        }

        public var id: UUID
        /// What to do; not empty.
        public var title: String
        /// Where the task stands.
        public var status: Status
        /// When it should be done (UTC); `nil` for no date.
        public var dueDate: Date?
        public var priority: Priority
        /// Free text.
        public var notes: String
        /// Words to find and group tasks by, e.g. `shopping`; none blank.
        public var tags: [String]
        /// Files that belong to the task, stored as blobs beside the document.
        public var attachments: [BlobReference]

        public init(
            id: UUID = UUID(), title: String, status: Status = .todo, dueDate: Date? = nil,
            priority: Priority = .medium, notes: String = "", tags: [String] = [], attachments: [BlobReference] = []
        ) {
            self.id = id
            self.title = title
            self.status = status
            self.dueDate = dueDate
            self.priority = priority
            self.notes = notes
            self.tags = tags
            self.attachments = attachments
        }

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, title, status, dueDate, priority, notes, tags, attachments
        }

        /// Decodes strictly and completes what a user may leave out: a new `id`, to do,
        /// medium priority, no notes, no tags, no attachments.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(UUID.self, forKey: .id) ?? decoder.makeIdentifier()
            title = try container.decode(String.self, forKey: .title)
            dueDate = try container.decodeIfPresent(Date.self, forKey: .dueDate)
            notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
            tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
            attachments = try container.decodeIfPresent([BlobReference].self, forKey: .attachments) ?? []
            priority = try Priority.decode(from: container, forKey: .priority)
            status = try Status.decode(from: container, forKey: .status)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(dueDate, forKey: .dueDate)
            try container.encode(priority, forKey: .priority)
            try container.encode(notes, forKey: .notes)
            if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
            if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
        }
    }
}

extension ProjectSchemaV3.ProjectTask.Status {
    /// The status at `key`, in any letter case (`Done`, `inprogress`), as for priorities;
    /// `todo` when absent.
    static func decode<Key: CodingKey>(from container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> Self {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return .todo }
        guard let status = allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "'\(text)' is not a status (todo, inProgress or done)")
        }
        return status
    }
}
