import Foundation
import Testing

@testable import DocumentKit

/// Whole plans: which stages a stored schema needs, running them, and what is refused.
@Suite struct SchemaMigratorTests {
    private let v1 = Data(#"{"text": "milk"}"#.utf8)

    @Test func plansTheChainFromEveryStoredSchema() throws {
        let migrator = try SchemaMigrator(plan: NotePlan.self, documentName: "Note")
        #expect(migrator.versions.map(\.description) == ["1.0.0", "2.0.0", "3.0.0"])
        #expect(migrator.currentVersion == SchemaVersion(3, 0, 0))
        #expect(try migrator.migration(from: "1.0.0").stages.map(\.id) == ["add-tags", "rename-text"])
        #expect(try migrator.migration(from: "2.0.0").stages.map(\.id) == ["rename-text"])
        #expect(try migrator.migration(from: "3.0.0").isEmpty)
        #expect(try migrator.migration(from: "1.0.0", to: SchemaVersion(2, 0, 0)).stages.map(\.id) == ["add-tags"])
        let migration = try migrator.migration(from: "2.0.0")
        #expect(migration.from == SchemaVersion(2, 0, 0) && migration.to == SchemaVersion(3, 0, 0))
    }

    @Test func runsTheStagesInOrder() throws {
        let migrator = try SchemaMigrator(plan: NotePlan.self)
        let (json, migration) = try migrator.migrate(v1, from: "1.0.0")
        #expect(String(decoding: json, as: UTF8.self) == #"{"body":"milk","tags":[]}"#)
        #expect(migration.stages.map(\.id) == ["add-tags", "rename-text"])
        let current = Data(#"{"body": "as it was"}"#.utf8)
        #expect(try migrator.migrate(current, from: "3.0.0").json == current, "nothing runs, the bytes stay")
    }

    @Test func aNewerSchemaIsRefusedNamingBoth() {
        #expect {
            try SchemaMigrator(plan: NotePlan.self, documentName: "Note").migration(from: "4.0.0")
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .unsupportedFormat && error.exitStatus == 65
                && error.message
                    == """
                    written with Note schema 4.0.0; this build reads up to 3.0.0; upgrade \
                    \(ProcessInfo.processInfo.processName)
                    """
        }
    }

    @Test(arguments: [
        ("1.5.0", "written with Note schema 1.5.0, which this build does not know (it knows 1.0.0, 2.0.0, 3.0.0)"),
        ("3", "written with Note schema '3', which is not a schema version (major.minor.patch)"),
        ("", "written with Note schema '', which is not a schema version (major.minor.patch)")
    ])
    func aSchemaThePlanDoesNotListIsRefused(schema: String, message: String) {
        #expect {
            try SchemaMigrator(plan: NotePlan.self, documentName: "Note").migration(from: schema)
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .unsupportedFormat && error.message == message
        }
    }

    @Test func aDocumentTypeReadsOlderSchemasThroughItsPlan() throws {
        #expect(NoteV3.Note.schemaVersion == SchemaVersion(3, 0, 0), "the plan's last schema")
        #expect(try NoteV3.Note.decode(v1, schema: "1.0.0") == NoteV3.Note(body: "milk", tags: []))
        #expect(
            try NoteV3.Note.decode(Data(#"{"body": "b", "tags": []}"#.utf8), schema: "3.0.0")
                == NoteV3.Note(body: "b", tags: []))
        #expect(throws: DocumentKitError.self) {
            try NoteV3.Note.decode(Data(#"{"text": "milk"}"#.utf8), schema: "3.0.0")
        }
        #expect(throws: DocumentKitError.self) { try NoteV3.Note.decode(v1, schema: "4.0.0") }
    }

    @Test func aTypeWithoutAPlanReadsOlderSchemasAsTheyAreAndRefusesNewerOnes() throws {
        struct Plain: CodableDocument, Equatable {
            static let contentType = ContentType(
                identifier: "org.documentkit.test.plain", mimeType: "application/vnd.documentkit.test.plain+zip")
            static let schemaVersion = SchemaVersion(1, 2, 0)
            var text: String
        }
        #expect(try Plain.decode(v1, schema: "1.0.0") == Plain(text: "milk"))
        #expect(try Plain.migration(from: "1.1.0").isEmpty)
        #expect {
            try Plain.decode(v1, schema: "1.3.0")
        } throws: { error in
            (error as! DocumentKitError).message.hasPrefix(
                "written with Plain schema 1.3.0; this build reads up to 1.2.0; upgrade ")
        }
    }
}
