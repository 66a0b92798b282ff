import Foundation

@testable import DocumentKit

// A small document type with three schemas, for testing stages and plans on their own:
// 1.0.0 {text}, 2.0.0 adds tags (lightweight), 3.0.0 renames text to body (custom).

enum NoteV1: VersionedSchema {
    static let versionIdentifier = SchemaVersion(1, 0, 0)
    typealias Model = Note
    struct Note: Codable, Equatable {
        var text: String
        private enum CodingKeys: String, CodingKey, CaseIterable { case text }
        init(text: String) { self.text = text }
        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            text = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .text)
        }
    }
}

enum NoteV2: VersionedSchema {
    static let versionIdentifier = SchemaVersion(2, 0, 0)
    typealias Model = Note
    struct Note: Codable, Equatable {
        var text: String
        var tags: [String]
        private enum CodingKeys: String, CodingKey, CaseIterable { case text, tags }
        init(text: String, tags: [String]) {
            self.text = text
            self.tags = tags
        }
        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decode(String.self, forKey: .text)
            tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        }
    }
}

enum NoteV3: VersionedSchema {
    static let versionIdentifier = SchemaVersion(3, 0, 0)
    typealias Model = Note
    struct Note: CodableDocument, Equatable {
        static let contentType = ContentType(
            identifier: "org.documentkit.test.note", mimeType: "application/vnd.documentkit.test.note+zip")
        static var migrationPlan: (any SchemaMigrationPlan.Type)? { NotePlan.self }
        var body: String
        var tags: [String]
        private enum CodingKeys: String, CodingKey, CaseIterable { case body, tags }
        init(body: String, tags: [String]) {
            self.body = body
            self.tags = tags
        }
        init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(Set(CodingKeys.allCases.map(\.stringValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            body = try container.decode(String.self, forKey: .body)
            tags = try container.decode([String].self, forKey: .tags)
        }
    }
}

/// Another type claiming 1.0.0, to check that a stage names the plan's own schema types.
enum NoteV1Impostor: VersionedSchema {
    static let versionIdentifier = SchemaVersion(1, 0, 0)
    typealias Model = NoteV1.Note
}

enum NoteStages {
    static let addTags = MigrationStage.lightweight(id: "add-tags", fromVersion: NoteV1.self, toVersion: NoteV2.self)
    static let renameText = MigrationStage.custom(
        id: "rename-text", fromVersion: NoteV2.self, toVersion: NoteV3.self,
        migrate: { old in NoteV3.Note(body: old.text, tags: old.tags) })
}

enum NotePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [NoteV1.self, NoteV2.self, NoteV3.self] }
    static var stages: [MigrationStage] { [NoteStages.addTags, NoteStages.renameText] }
}
