import Foundation

/// One task of a `Project`, identified by a stable UUID.
public struct ProjectTask: Codable, Equatable, Identifiable {
    /// How urgent a task is.
    public enum Priority: String, Codable, CaseIterable, Sendable {
        case low, medium, high
    }

    public var id: UUID
    /// What to do; not empty.
    public var title: String
    public var isComplete: Bool
    /// When it should be done (UTC); `nil` for no date.
    public var dueDate: Date?
    public var priority: Priority
    /// Free text.
    public var notes: String
    /// Files that belong to the task, stored as blobs beside the document.
    public var attachments: [BlobReference]

    public init(id: UUID = UUID(), title: String, isComplete: Bool = false, dueDate: Date? = nil,
                priority: Priority = .medium, notes: String = "", attachments: [BlobReference] = []) {
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

    /// Decodes strictly and completes what a user may leave out: a new `id`, not complete,
    /// medium priority, no notes, no attachments.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(UUID.self, forKey: .id) ?? decoder.makeIdentifier()
        title = try container.decode(String.self, forKey: .title)
        isComplete = try container.decodeIfPresent(Bool.self, forKey: .isComplete) ?? false
        dueDate = try container.decodeIfPresent(Date.self, forKey: .dueDate)
        notes = try container.decodeIfPresent(String.self, forKey: .notes) ?? ""
        attachments = try container.decodeIfPresent([BlobReference].self, forKey: .attachments) ?? []
        if let text = try container.decodeIfPresent(String.self, forKey: .priority) {
            guard let priority = Priority(rawValue: text.lowercased()) else {
                throw DecodingError.dataCorruptedError(forKey: .priority, in: container,
                    debugDescription: "'\(text)' is not a priority (low, medium or high)")
            }
            self.priority = priority
        } else {
            priority = .medium
        }
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
