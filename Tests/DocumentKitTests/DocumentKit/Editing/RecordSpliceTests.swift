import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// An edit spliced into the head's text (`RecordSplice`) saves the same bundle, byte for
/// byte, as the same edit applied to the whole document, or fails with the same error;
/// and the edits it is meant for are spliced.
@Suite struct RecordSpliceTests {
    private func id(_ number: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", number) }

    /// A board of 40 tasks on three columns, some waiting, some tagged, with drafts
    /// absent (so that adding the first one adds the member) and a thumbnail.
    private func board(in directory: TemporaryDirectory) throws -> URL {
        var project = Project(name: "Board", createdAt: Date(timeIntervalSince1970: 1_767_225_600))
        let thumbnail = directory.url.appendingPathComponent("thumb.png")
        try Fixtures.png.write(to: thumbnail)
        project.thumbnail = try BlobReference(contentsOf: thumbnail, mediaType: "image/png")
        // Three columns with tasks, and an empty fourth.
        project.columns = (0..<4).map { ProjectColumn(id: UUID(uuidString: id(1000 + $0))!, name: "Column \($0)") }
        for number in 0..<40 {
            var task = ProjectTask(id: UUID(uuidString: id(number))!, title: "Task \(number)", notes: "notes \(number)")
            if number % 4 != 3 {
                task.column = project.columns[number % 3].id
                project.columns[number % 3].tasks.append(task.id)
            }
            if number % 7 == 6 { task.blockedBy = [UUID(uuidString: id(number - 1))!] }
            if number % 5 == 0 { task.tags = ["tag\(number)"] }
            if number == 15 {
                let attachment = directory.url.appendingPathComponent("notes.txt")
                try Data("attached".utf8).write(to: attachment)
                task.attachments = [try BlobReference(contentsOf: attachment, mediaType: "text/plain")]
            }
            project.tasks.append(task)
        }
        let url = directory.url.appendingPathComponent("board.dkproj")
        try DocumentController(newDocument: project, at: url).save(message: "Board", author: "Test")
        return url
    }

    /// The edits a user makes, each paired with whether splicing is meant to make it.
    private var edits: [(edit: String, DocumentEdit, spliced: Bool)] {
        func set(_ path: String, _ value: JSONValue) -> DocumentEdit { .set(try! JSONPath(parsing: path), value) }
        func unset(_ path: String) -> DocumentEdit { .remove(try! JSONPath(parsing: path)) }
        return [
            ("first title", set("tasks[0].title", .string("First, renamed")), true),
            ("middle status", set("tasks[20].status", .string("done")), true),
            ("last notes", set("tasks[-1].notes", .string("line one\nline \"two\"")), true),
            ("by id", set("tasks[id=\(id(13))].priority", .string("high")), true),
            ("by lower-case id", set("tasks[id=\(id(13).lowercased())].dueDate", .string("2026-05-01")), true),
            ("a tag appended", set("tasks[1].tags[+]", .string("new")), true),
            (
                "sixty tags, more changes than a summary lists",
                set("tasks[0].tags", .array((0..<60).map { .string("t\($0)") })), true
            ),
            ("an optional field removed", unset("tasks[0].tags"), true),
            (
                "a whole task replaced, same id",
                set("tasks[4]", .object(["id": .string(id(4)), "title": .string("Four"), "column": .string(id(1001))])),
                true
            ),
            (
                "a task appended",
                set("tasks[+]", .object(["title": .string("New task"), "tags": .array([.string("x")])])), true
            ),
            ("a task appended by its title", set("tasks[+].title", .string("Made from a path")), true),
            ("the first draft", set("drafts[+]", .object(["content": .string("An idea")])), true),
            ("a column renamed", set("columns[2].name", .string("Done")), true),
            ("the name", set("name", .string("Renamed board")), true),
            ("the summary", set("summary", .string("What it is for")), true),
            ("the thumbnail removed", unset("thumbnail"), true),
            ("archived", set("isArchived", .bool(true)), true),
            ("a change that changes nothing", set("tasks[2].title", .string("Task 2")), true),
            // Edits that move relationships: the rules run over the head's records.
            ("a task moved", set("tasks[0].column", .string(id(1002))), true),
            ("a task taken off its column", unset("tasks[1].column"), true),
            ("a task listed on another column", set("columns[0].tasks[+]", .string(id(1))), true),
            (
                "a task appended on a column",
                set("tasks[+]", .object(["title": .string("On"), "column": .string(id(1000))])), true
            ),
            (
                "a task appended waiting",
                set("tasks[+]", .object(["title": .string("Waits"), "blockedBy": .array([.string(id(3))])])), true
            ),
            ("a task removed", unset("tasks[10]"), true),
            ("a task with an attachment removed", unset("tasks[id=\(id(15))]"), true),
            ("a column removed with its tasks", unset("columns[1]"), true),
            ("an empty column removed", unset("columns[-1]"), true),
            ("a new id", set("tasks[3].id", .string(id(500))), true),
            (
                "a task appended with an id of its own",
                set("tasks[+]", .object(["id": .string(id(600)), "title": .string("Own id")])), true
            ),
            // What splicing leaves to the whole document.
            ("the tasks replaced", set("tasks", .array([])), false),
            ("the whole document", set("", .object(["name": .string("Whole")])), false),
            // Refused edits: the same error either way.
            ("a waited-for task removed", unset("tasks[5]"), false),
            ("a column with waited-for tasks removed", unset("columns[2]"), false),
            ("an empty title", set("tasks[3].title", .string(" ")), false),
            ("a duplicate id", set("tasks[3].id", .string(id(2))), false),
            (
                "a task appended with a used id",
                set("tasks[+]", .object(["id": .string(id(2)), "title": .string("Copy")])), false
            ),
            (
                "a task appended with a used id in lower case",
                set("tasks[+]", .object(["id": .string(id(39).lowercased()), "title": .string("Copy")])), false
            ),
            ("an unknown field", set("tasks[3].titel", .string("x")), false),
            ("a bad status", set("tasks[3].status", .string("sleeping")), false),
            ("out of range", set("tasks[99].title", .string("x")), false),
            ("an empty name", set("name", .string("")), false),
            ("no such task", set("tasks[id=\(id(77))].title", .string("x")), false),
            ("waiting for itself", set("tasks[8].blockedBy[+]", .string(id(8))), false),
            (
                "a missing blob",
                set("thumbnail", .object(["$blob": .string(String(repeating: "a", count: 64)), "size": .integer(1)])),
                false
            )
        ]
    }

    /// What an edit did: the version it saved and the bundle's bytes, or its error.
    private func outcome(of edit: DocumentEdit, on url: URL, splicing: Bool) -> String {
        let metadata = SaveMetadata(
            author: "Test", message: "Edit", created: Date(timeIntervalSince1970: 1_767_312_000), compression: .zstd)
        do {
            let outcome = try BundleEdits.apply(at: url, metadata: metadata, splicing: splicing) { _ in edit }
            return "saved \(outcome.version?.id ?? "nothing"), \(ObjectDigest.of(try Data(contentsOf: url)).hex)"
        } catch {
            // The two copies have different names; the rest of the message must agree.
            return "error: \(error)".replacingOccurrences(of: url.path, with: "BUNDLE")
        }
    }

    @Test func splicedEditsSaveWhatWholeDocumentEditsSave() throws {
        let directory = try TemporaryDirectory()
        let original = try board(in: directory)
        for (name, edit, _) in edits {
            let spliced = directory.url.appendingPathComponent("spliced.dkproj")
            let whole = directory.url.appendingPathComponent("whole.dkproj")
            for copy in [spliced, whole] {
                try? FileManager.default.removeItem(at: copy)
                try FileManager.default.copyItem(at: original, to: copy)
            }
            #expect(
                outcome(of: edit, on: spliced, splicing: true) == outcome(of: edit, on: whole, splicing: false),
                "\(name)")
        }
    }

    @Test func theEditsItIsMeantForAreSpliced() throws {
        let directory = try TemporaryDirectory()
        let bundle = try DocumentBundle(contentsOf: try board(in: directory))
        let pending = PendingObjects(base: bundle)
        let head = try bundle.headDocumentData()
        for (name, edit, meant) in edits {
            let context = DocumentDecodingContext(
                now: Date(timeIntervalSince1970: 0), seed: "test", objectSource: pending)
            let spliced = RecordSplice<Project>(edit: edit, context: context, pending: pending).apply(to: head)
            #expect((spliced != nil) == meant, "\(name)")
        }
    }

    @Test func randomEditsOfRandomRecordsSaveTheSameEitherWay() throws {
        let directory = try TemporaryDirectory()
        let original = try board(in: directory)
        var random = SeededRandom(seed: 10)
        let fields: [(String, (inout SeededRandom) -> JSONValue)] = [
            ("title", { .string(["A", "B", "", "Ünïcode ✓", "tab\there"].randomElement(using: &$0)!) }),
            ("status", { .string(["todo", "inProgress", "done", "nope"].randomElement(using: &$0)!) }),
            ("priority", { .string(["low", "medium", "high"].randomElement(using: &$0)!) }),
            ("notes", { .string(["", "more notes", "\u{1}"].randomElement(using: &$0)!) }),
            (
                "dueDate",
                {
                    [.string("2026-02-03"), .string("2026-02-03T04:05:06Z"), .null, .integer(5)].randomElement(
                        using: &$0)!
                }
            ),
            (
                "tags",
                {
                    [.array([]), .array([.string("a"), .string("b")]), .array([.string(" ")])].randomElement(
                        using: &$0)!
                }
            )
        ]
        var spliced = 0
        for round in 0..<100 {
            let (field, makeValue) = fields.randomElement(using: &random)!
            let task = Int.random(in: -40..<40, using: &random)
            let path = try JSONPath(parsing: "tasks[\(task)].\(field)")
            let column = JSONValue.string(id(1000 + Int.random(in: 0..<5, using: &random)))
            let edit: DocumentEdit =
                switch Int.random(in: 0..<10, using: &random) {
                case 0: .remove(try JSONPath(parsing: "tasks[\(task)]"))
                case 1: .remove(try JSONPath(parsing: "columns[\(Int.random(in: 0..<4, using: &random))]"))
                case 2: .set(try JSONPath(parsing: "tasks[\(task)].column"), column)
                case 3: .set(try JSONPath(parsing: "tasks[+]"), .object(["title": .string("New"), "column": column]))
                case 4:
                    .set(
                        try JSONPath(parsing: "columns[\(Int.random(in: 0..<4, using: &random))].tasks[+]"),
                        .string(id(abs(task))))
                case 5:
                    .set(
                        try JSONPath(parsing: "tasks[\(task)].blockedBy[+]"),
                        .string(id(Int.random(in: 0..<45, using: &random))))
                default: Bool.random(using: &random) ? .set(path, makeValue(&random)) : .remove(path)
                }
            let a = directory.url.appendingPathComponent("a\(round).dkproj")
            let b = directory.url.appendingPathComponent("b\(round).dkproj")
            try FileManager.default.copyItem(at: original, to: a)
            try FileManager.default.copyItem(at: original, to: b)
            let first = outcome(of: edit, on: a, splicing: true)
            #expect(first == outcome(of: edit, on: b, splicing: false), "\(edit)")
            if first.hasPrefix("saved") { spliced += 1 }
        }
        #expect(spliced > 30, "most random edits were saved, so the comparison covered the spliced path")
    }
}
