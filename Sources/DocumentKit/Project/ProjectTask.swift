import Foundation

extension ProjectSchemaV3 {
    /// One task of a project, identified by a stable UUID; see the `ProjectTask` type alias.
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

        public init(id: UUID = UUID(), title: String, status: Status = .todo, dueDate: Date? = nil,
                    priority: Priority = .medium, notes: String = "", tags: [String] = [], attachments: [BlobReference] = []) {
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
            if let text = try container.decodeIfPresent(String.self, forKey: .status) {
                // Any letter case, as for priorities: `Done`, `inprogress`.
                guard let status = Status.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                    throw DecodingError.dataCorruptedError(forKey: .status, in: container,
                        debugDescription: "'\(text)' is not a status (todo, inProgress or done)")
                }
                self.status = status
            } else {
                status = .todo
            }
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
