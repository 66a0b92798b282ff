import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI
@testable import SampleProject

/// The Project type's three schemas, each of its stages, and its plan on the SampleDocs
/// bundles written with 1.0.0 and 2.0.0.
@Suite struct ProjectMigrationTests {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// What a migration to 3.0.0 must make of stored JSON, written independently of the
    /// stages: `summary` added when missing, each task's `isComplete` replaced by `status`.
    private func expectedV3(_ stored: JSONValue) -> JSONValue {
        guard case .object(var project) = stored, case .array(let tasks)? = project["tasks"] else { return stored }
        project["summary"] = project["summary"] ?? .string("")
        project["tasks"] = .array(
            tasks.map { task in
                guard case .object(var members) = task else { return task }
                let complete = members.removeValue(forKey: "isComplete") == .bool(true)
                members["status"] = .string(complete ? "done" : "todo")
                return .object(members)
            })
        return .object(project)
    }

    @Test func thePlanListsFourSchemasAndThreeStages() throws {
        let migrator = try #require(try Project.schemaMigrator())
        #expect(migrator.versions.map(\.description) == ["1.0.0", "2.0.0", "3.0.0", "4.0.0"])
        #expect(migrator.stages.map(\.id) == ["v2-tags-and-summary", "v3-task-status", "v4-board-and-drafts"])
        #expect(migrator.stages.map(\.kind) == [.lightweight, .custom, .lightweight])
        #expect(Project.schemaVersion == SchemaVersion(4, 0, 0))
        #expect(
            try Project.migration(from: "1.0.0").stages.map(\.id) == [
                "v2-tags-and-summary", "v3-task-status", "v4-board-and-drafts"
            ])
        #expect(try Project.migration(from: "2.0.0").stages.map(\.id) == ["v3-task-status", "v4-board-and-drafts"])
        #expect(try Project.migration(from: "3.0.0").stages.map(\.id) == ["v4-board-and-drafts"])
        #expect(try Project.migration(from: "4.0.0").isEmpty)
    }

    @Test func theBoardStageKeepsA300DocumentAsItIsAndTheNewFieldsDefault() throws {
        let v3 =
            #"{"createdAt":"2026-01-01T00:00:00Z","isArchived":false,"name":"Garden","summary":"","tasks":[{"id":"00000000-0000-4000-8000-000000000001","notes":"","priority":"high","status":"done","title":"Dig"}]}"#
        let stage = ProjectMigrationPlan.stages[2]
        #expect(text(try stage.apply(to: Data(v3.utf8))) == v3)
        let project = try Project.decode(Data(v3.utf8))
        #expect(project.columns.isEmpty && project.drafts.isEmpty)
        #expect(project.tasks[0].column == nil && project.tasks[0].blockedBy.isEmpty)
    }

    @Test func theLightweightStageAddsTheSummaryAndNoTags() throws {
        let v1 =
            #"{"createdAt":"2026-01-01T00:00:00Z","isArchived":false,"name":"Garden","tasks":[{"id":"00000000-0000-4000-8000-000000000001","isComplete":true,"notes":"","priority":"high","title":"Dig"}]}"#
        let stage = ProjectMigrationPlan.stages[0]
        #expect(
            text(try stage.apply(to: Data(v1.utf8)))
                == #"{"createdAt":"2026-01-01T00:00:00Z","isArchived":false,"name":"Garden","summary":"","tasks":[{"id":"00000000-0000-4000-8000-000000000001","isComplete":true,"notes":"","priority":"high","title":"Dig"}]}"#
        )
    }

    @Test func theCustomStageTurnsCompletionIntoAStatusAndKeepsEveryOtherField() throws {
        let blob = #"{"$blob":"\#(ObjectDigest.of(Fixtures.png).hex)","mediaType":"image/png","size":67}"#
        let v2 = """
            {"createdAt":"2026-01-01T00:00:00Z","isArchived":true,"name":"Garden","summary":"Vegetables","thumbnail":\(blob),"tasks":[\
            {"attachments":[\(blob)],"dueDate":"2026-03-01T00:00:00Z","id":"00000000-0000-4000-8000-000000000001","isComplete":true,"notes":"n","priority":"high","tags":["a","b"],"title":"Dig"},\
            {"id":"00000000-0000-4000-8000-000000000002","isComplete":false,"notes":"","priority":"low","title":"Sow"}]}
            """
        let migrated = try ProjectMigrationPlan.stages[1].apply(to: Data(v2.utf8))
        #expect(try JSONValue.parse(migrated) == expectedV3(try JSONValue.parse(Data(v2.utf8))))
        let project = try Project.decode(migrated)
        #expect(project.tasks.map(\.status) == [.done, .todo])
        #expect(project.tasks[0].attachments.map(\.digest) == [ObjectDigest.of(Fixtures.png)])
    }

    @Test func theCustomStageMapsEveryFieldOfTheOldModel() {
        // A field added to 2.0.0's model but forgotten by the stage would show here: the
        // stage's output must have every input field but the one it replaces.
        func labels(_ value: Any) -> Set<String> { Set(Mirror(reflecting: value).children.compactMap(\.label)) }
        let oldTask = ProjectSchemaV2.ProjectTask(id: UUID(), title: "t")
        let newTask = ProjectSchemaV3.ProjectTask(migrating: oldTask)
        #expect(labels(oldTask).subtracting(["isComplete"]) == labels(newTask).subtracting(["status"]))
        let oldProject = ProjectSchemaV2.Project(name: "p", createdAt: .distantPast)
        #expect(labels(oldProject) == labels(ProjectSchemaV3.Project(migrating: oldProject)))
    }

    @Test func theCurrentSchemaRefusesTheOldField() throws {
        #expect {
            try Project.decode(Data(#"{"name": "x", "tasks": [{"title": "a", "isComplete": true}]}"#.utf8))
        } throws: { error in
            (error as! DocumentKitError).description.hasPrefix(
                """
                tasks[0].isComplete: unknown field 'isComplete' (known fields: attachments, blockedBy, column, \
                dueDate, id, notes, priority, status, tags, title)
                """
            )
        }
        #expect {
            try Project.decode(Data(#"{"name": "x", "tasks": [{"title": "a", "status": "finished"}]}"#.utf8))
        } throws: { error in
            (error as! DocumentKitError).description.hasPrefix(
                "tasks[0].status: 'finished' is not a status (todo, inProgress or done)")
        }
        #expect(
            try Project.decode(Data(#"{"name": "x", "tasks": [{"title": "a", "status": "InProgress"}]}"#.utf8)).tasks[0]
                .status == .inProgress)
    }

    @Test(arguments: [("legacy-v1.dkproj", "1.0.0", 6), ("legacy-v2.dkproj", "2.0.0", 5)])
    func everyVersionOfALegacySampleReadsAsACurrentProject(name: String, headSchema: String, versions: Int) throws {
        let url = Fixtures.sampleDoc(name)
        let before = try Fixtures.digest(of: url)
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.manifest.versions.count == versions)
        #expect(bundle.headVersion.schema == headSchema)
        for version in try bundle.manifest.versions {
            let stored = try bundle.documentData(of: version)
            let project = try bundle.read(Project.self, version: version)
            #expect(
                try JSONValue.parse(try project.encodedJSON()) == expectedV3(try JSONValue.parse(stored)),
                "version \(version.number)")
        }
        #expect(try Fixtures.digest(of: url) == before, "reading writes nothing")
    }

    @Test func theFrozen100ModelWritesWhatDocumentKit010Wrote() throws {
        // regenerate.sh writes legacy-v1.dkproj with DOCUMENTKIT_WRITE_SCHEMA=1.0.0, replaying
        // the edits that made 0.1.0's garden.dkproj, kept as SampleDocs/format-1/legacy-v1.dkproj
        // (SHA-256 b06837d1…, checked by regenerate.sh --check). Every version's document is
        // the same text, byte for byte, but for the new tasks' ids: those are drawn from a
        // seed that covers the head's id, and format 2 and 3's ids differ from format 1's.
        let old = try DocumentBundle(contentsOf: Fixtures.sampleDoc("format-1/legacy-v1.dkproj"))
        let new = try DocumentBundle(contentsOf: Fixtures.sampleDoc("legacy-v1.dkproj"))
        #expect(try old.manifest.formatVersion == 1 && new.manifest.formatVersion == 3)
        try #require(try old.manifest.versions.count == 6 && new.manifest.versions.count == 6)
        for (oldVersion, newVersion) in zip(try old.manifest.versions, try new.manifest.versions) {
            var oldText = String(decoding: try old.documentData(of: oldVersion), as: UTF8.self)
            let newText = String(decoding: try new.documentData(of: newVersion), as: UTF8.self)
            let ids = { (text: String) -> [String] in
                guard case .object(let project) = try JSONValue.parse(Data(text.utf8)),
                    case .array(let tasks)? = project["tasks"]
                else { return [] }
                return tasks.compactMap {
                    if case .object(let task) = $0, case .string(let id)? = task["id"] { id } else { nil }
                }
            }
            for (oldID, newID) in zip(try ids(oldText), try ids(newText)) {
                oldText = oldText.replacingOccurrences(of: oldID, with: newID)
            }
            #expect(oldText == newText, "version \(newVersion.number)")
        }
    }

    @Test func theLegacySamplesHoldWhatTheirScriptSays() throws {
        let v1 = try DocumentBundle(contentsOf: Fixtures.sampleDoc("legacy-v1.dkproj"))
        #expect(try v1.manifest.versions.allSatisfy { $0.schema == "1.0.0" })
        let garden = try v1.read(Project.self)
        #expect(garden.tasks.map(\.title) == ["Buy seeds", "Dig the beds", "Plant tomatoes"])
        #expect(garden.tasks.map(\.status) == [.done, .todo, .todo])
        #expect(garden.tasks.map(\.priority) == [.high, .medium, .medium])
        #expect(garden.summary == "" && garden.tasks.allSatisfy(\.tags.isEmpty) && garden.thumbnail?.size == 4898)

        let v2 = try DocumentBundle(contentsOf: Fixtures.sampleDoc("legacy-v2.dkproj"))
        #expect(try v2.manifest.versions.map(\.schema) == ["1.0.0", "1.0.0", "2.0.0", "2.0.0", "2.0.0"])
        let kitchen = try v2.read(Project.self)
        #expect(kitchen.summary == "New floor and cupboards")
        #expect(kitchen.tasks.map(\.status) == [.done, .todo])
        #expect(kitchen.tasks[1].tags == ["shopping", "floor"])
    }

    @Test func aControllerMigratesInMemoryAndSavesTheCurrentSchemaAsANewVersion() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v1.dkproj", to: directory)
        let original = try DocumentBundle(contentsOf: url)
        let storedDocuments = try original.manifest.versions.map { try original.documentData(of: $0) }
        let controller = try DocumentController<Project>(contentsOf: url)
        #expect(controller.document.tasks[0].status == .done)
        #expect(
            try Fixtures.digest(of: url) == Fixtures.digest(of: Fixtures.sampleDoc("legacy-v1.dkproj")),
            "opening writes nothing")

        controller.document.tasks[1].status = .inProgress
        let saved = try #require(try controller.save(message: "Digging", author: "ada"))
        #expect(saved.number == 7 && saved.schema == "4.0.0")
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.manifest.versions.map(\.schema) == Array(repeating: "1.0.0", count: 6) + ["4.0.0"])
        for (version, stored) in zip(try bundle.manifest.versions, storedDocuments) {
            #expect(try bundle.documentData(of: version) == stored, "version \(version.number) stays as it was")
        }
        #expect(try bundle.read(Project.self).tasks.map(\.status) == [.done, .inProgress, .todo])
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
    }

    @Test func aMigrationThatKeepsTheBytesStillRecordsTheNewSchema() throws {
        // A 2.0.0 project without tasks is already valid 4.0.0 JSON: saving it migrated
        // changes no byte, yet must say that the document is now 4.0.0.
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        try Run.docctl(
            ["new", "p.dkproj", "--name", "Empty"], in: directory.url,
            environment: [DocumentTool.writeSchemaVariable: "2.0.0"])
        let controller = try DocumentController<Project>(contentsOf: url)
        let saved = try #require(try controller.save(message: "Migrate", author: "test"))
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try saved.schema == "4.0.0" && saved.tree == bundle.manifest.versions[0].tree)
        #expect(try controller.save(author: "test") == nil, "and then nothing is left to save")
    }
}
