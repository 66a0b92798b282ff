import DocumentKit
import Foundation

/// The Project schema `4.0.0`, the one this build writes: 3.0.0 plus a board of `columns`
/// that own tasks, tasks `blockedBy` other tasks, and `drafts`. Every new field has a
/// default, so 3.0.0 documents become 4.0.0 ones by a lightweight stage.
///
/// When a 5.0.0 comes, these types stay as they are (they are what 4.0.0 documents are)
/// and `Project` names the new version's.
public enum ProjectSchemaV4: VersionedSchema {
    public static let versionIdentifier = SchemaVersion(4, 0, 0)
    public typealias Model = Project

    /// A project; see the `Project` type alias.
    public struct Project: CodableDocument, Equatable, Sendable {
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
        /// The board's columns, left to right; each lists the tasks on it.
        public var columns: [ProjectColumn]
        /// Text kept for later, e.g. posts not yet published.
        public var drafts: [ProjectDraft]
        /// A picture of the project, stored beside the document.
        public var thumbnail: BlobReference?

        public init(
            name: String, createdAt: Date = DocumentDates.now(), isArchived: Bool = false, summary: String = "",
            tasks: [ProjectTask] = [], columns: [ProjectColumn] = [], drafts: [ProjectDraft] = [],
            thumbnail: BlobReference? = nil
        ) {
            self.name = name
            self.createdAt = createdAt
            self.isArchived = isArchived
            self.summary = summary
            self.tasks = tasks
            self.columns = columns
            self.drafts = drafts
            self.thumbnail = thumbnail
        }

        /// The members a decode accepts: made once, not once for each of 20,000 records.
        private static let knownKeys = Set(CodingKeys.allCases.map(\.stringValue))

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case name, createdAt, isArchived, summary, tasks, columns, drafts, thumbnail
        }

        /// Decodes strictly (unknown fields are refused) and completes what a user may leave
        /// out: `createdAt` becomes now, `isArchived` false, `summary` empty, `tasks`,
        /// `columns` and `drafts` empty.
        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Self.knownKeys)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            createdAt = try container.decodeIfPresent(Date.self, forKey: .createdAt) ?? decoder.documentNow
            isArchived = try container.decodeIfPresent(Bool.self, forKey: .isArchived) ?? false
            summary = try container.decodeIfPresent(String.self, forKey: .summary) ?? ""
            tasks = try container.decodeIfPresent([ProjectTask].self, forKey: .tasks) ?? []
            columns = try container.decodeIfPresent([ProjectColumn].self, forKey: .columns) ?? []
            drafts = try container.decodeIfPresent([ProjectDraft].self, forKey: .drafts) ?? []
            thumbnail = try container.decodeIfPresent(BlobReference.self, forKey: .thumbnail)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(isArchived, forKey: .isArchived)
            try container.encode(summary, forKey: .summary)
            try container.encode(tasks, forKey: .tasks)
            // Left out when empty, as tags are: a 3.0.0 document without them is then
            // already its 4.0.0 self, byte for byte.
            if !columns.isEmpty { try container.encode(columns, forKey: .columns) }
            if !drafts.isEmpty { try container.encode(drafts, forKey: .drafts) }
            try container.encodeIfPresent(thumbnail, forKey: .thumbnail)
        }
    }
}
