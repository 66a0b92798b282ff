import DocumentKit
import Foundation

extension ProjectSchemaV4 {
    /// One task of a project, identified by a stable UUID; see the `ProjectTask` type alias.
    public struct ProjectTask: Codable, Equatable, Identifiable, Sendable {
        /// How urgent a task is (unchanged since schema 1.0.0).
        public typealias Priority = ProjectSchemaV1.ProjectTask.Priority
        /// Where a task stands (unchanged since schema 3.0.0).
        public typealias Status = ProjectSchemaV3.ProjectTask.Status

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
        /// The id of the board column the task is on, `nil` for none; the inverse of the
        /// column's `tasks`, kept in step with it by every write transaction.
        public var column: UUID?
        /// The ids of the tasks this one waits for. A task others wait for cannot be deleted.
        public var blockedBy: [UUID]

        public init(
            id: UUID = UUID(), title: String, status: Status = .todo, dueDate: Date? = nil,
            priority: Priority = .medium, notes: String = "", tags: [String] = [], attachments: [BlobReference] = [],
            column: UUID? = nil, blockedBy: [UUID] = []
        ) {
            self.id = id
            self.title = title
            self.status = status
            self.dueDate = dueDate
            self.priority = priority
            self.notes = notes
            self.tags = tags
            self.attachments = attachments
            self.column = column
            self.blockedBy = blockedBy
        }

        /// The members a decode accepts: made once, not once for each of 20,000 records.
        private static let knownKeys = Set(CodingKeys.allCases.map(\.stringValue))

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, title, status, dueDate, priority, notes, tags, attachments, column, blockedBy
        }

        /// Decodes strictly and completes what a user may leave out: a new `id`, to do,
        /// medium priority, no notes, tags, attachments, column or blockers.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Self.knownKeys)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeUUIDIfPresent(forKey: .id) ?? decoder.makeIdentifier()
            title = try container.decode(String.self, forKey: .title)
            dueDate = try container.decodeIfPresent(Date.self, forKey: .dueDate)
            notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
            tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
            attachments = try container.decodeIfPresent([BlobReference].self, forKey: .attachments) ?? []
            priority = try Priority.decode(from: container, forKey: .priority)
            status = try Status.decode(from: container, forKey: .status)
            column = try container.decodeUUIDIfPresent(forKey: .column)
            blockedBy = try container.decodeUUIDsIfPresent(forKey: .blockedBy) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id.text, forKey: .id)
            try container.encode(title, forKey: .title)
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(dueDate, forKey: .dueDate)
            try container.encode(priority, forKey: .priority)
            try container.encode(notes, forKey: .notes)
            if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
            if !attachments.isEmpty { try container.encode(attachments, forKey: .attachments) }
            try container.encodeIfPresent(column?.text, forKey: .column)
            if !blockedBy.isEmpty { try container.encode(blockedBy.map(\.text), forKey: .blockedBy) }
        }
    }

    /// A column of the project's board, e.g. "Doing": a named, ordered list of tasks.
    public struct ProjectColumn: Codable, Equatable, Identifiable, Sendable {
        public var id: UUID
        /// The column's heading; not empty.
        public var name: String
        /// The ids of the tasks on the column, top to bottom. Each task's `column` names
        /// the column back; deleting a column deletes its tasks (see `Project.relationships`).
        public var tasks: [UUID]

        public init(id: UUID = UUID(), name: String, tasks: [UUID] = []) {
            self.id = id
            self.name = name
            self.tasks = tasks
        }

        /// The members a decode accepts: made once, not once for each of 20,000 records.
        private static let knownKeys = Set(CodingKeys.allCases.map(\.stringValue))

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, name, tasks
        }

        /// Decodes strictly; a new column gets an `id` and no tasks.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Self.knownKeys)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeUUIDIfPresent(forKey: .id) ?? decoder.makeIdentifier()
            name = try container.decode(String.self, forKey: .name)
            tasks = try container.decodeUUIDsIfPresent(forKey: .tasks) ?? []
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id.text, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(tasks.map(\.text), forKey: .tasks)
        }
    }

    /// Text kept for later, with when it was first written.
    public struct ProjectDraft: Codable, Equatable, Identifiable, Sendable {
        public var id: UUID
        /// The draft's text; not blank.
        public var content: String
        /// When the draft was created (UTC, whole seconds).
        public var createdAt: Date

        public init(id: UUID = UUID(), content: String, createdAt: Date = DocumentDates.now()) {
            self.id = id
            self.content = content
            self.createdAt = createdAt
        }

        /// The members a decode accepts: made once, not once for each of 20,000 records.
        private static let knownKeys = Set(CodingKeys.allCases.map(\.stringValue))

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case id, content, createdAt
        }

        /// Decodes strictly; a new draft gets an `id` and is created now.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Self.knownKeys)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeUUIDIfPresent(forKey: .id) ?? decoder.makeIdentifier()
            content = try container.decode(String.self, forKey: .content)
            createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt) ?? decoder.documentNow
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id.text, forKey: .id)
            try container.encode(content, forKey: .content)
            try container.encode(createdAt, forKey: .createdAt)
        }
    }
}
