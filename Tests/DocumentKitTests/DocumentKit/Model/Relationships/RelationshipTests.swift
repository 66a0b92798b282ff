import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// Project's relationships, kept by every transaction: columns own tasks (both sides kept
/// in step; deleting a column cascades to its tasks, deleting a task nullifies its place
/// on the column) and tasks wait for tasks (deleting one others wait for is denied).
@Suite struct RelationshipTests {
    private func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    /// Columns 100 ("To do": tasks 0 and 1) and 101 ("Doing": task 2); task 1 waits for task 2.
    private func board(_ directory: TemporaryDirectory) throws -> DocumentController<Project> {
        var project = Fixtures.project()
        project.columns = [
            ProjectColumn(id: id(100), name: "To do", tasks: [id(0), id(1)]),
            ProjectColumn(id: id(101), name: "Doing", tasks: [id(2)])
        ]
        project.tasks[0].column = id(100)
        project.tasks[1].column = id(100)
        project.tasks[2].column = id(101)
        project.tasks[1].blockedBy = [id(2)]
        let url = directory.url.appendingPathComponent("board.dkproj")
        try DocumentController(newDocument: project, at: url).save(message: "Board", author: "test")
        return try DocumentController<Project>(contentsOf: url)
    }

    private func expectRefused(
        _ controller: DocumentController<Project>, _ violations: [RuleViolation],
        sourceLocation: SourceLocation = #_sourceLocation, _ change: (inout Project) -> Void
    ) throws {
        let before = try Data(contentsOf: controller.url)
        let document = controller.document
        do {
            try controller.write(author: "test", change)
            Issue.record("saved", sourceLocation: sourceLocation)
        } catch let error as DocumentKitError {
            #expect(error.violations == violations, sourceLocation: sourceLocation)
        }
        #expect(controller.document == document, sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: controller.url) == before, sourceLocation: sourceLocation)
    }

    @Test func settingATasksColumnMovesItOnTheBoard() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try controller.write(author: "test") { $0.tasks[0].column = id(101) }
        #expect(controller.document.columns.map(\.tasks) == [[id(1)], [id(2), id(0)]])
        try controller.write(author: "test") { $0.tasks[2].column = nil }
        #expect(controller.document.columns.map(\.tasks) == [[id(1)], [id(0)]])
        #expect(try DocumentBundle(contentsOf: controller.url).read(Project.self) == controller.document)
    }

    @Test func listingATaskInAColumnSetsItsColumnAndTakesItOffTheOld() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try controller.write(author: "test") { $0.columns[1].tasks.insert(id(0), at: 0) }
        #expect(controller.document.tasks[0].column == id(101))
        #expect(controller.document.columns.map(\.tasks) == [[id(1)], [id(0), id(2)]])
        try controller.write(author: "test") { $0.columns[0].tasks.removeAll() }
        #expect(controller.document.tasks[1].column == nil)
    }

    @Test func aNewColumnAndNewTasksOnItInOneTransaction() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try controller.write(author: "test") { project in
            project.columns.append(ProjectColumn(id: id(102), name: "Done"))
            project.tasks.append(ProjectTask(id: id(20), title: "Celebrate", column: id(102)))
            project.tasks.append(ProjectTask(id: id(21), title: "Tidy up", column: id(102)))
        }
        #expect(controller.document.columns[2].tasks == [id(20), id(21)])
    }

    @Test func twoSidesSetToDisagreeAreRefused() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try expectRefused(
            controller,
            [
                RuleViolation(
                    "columns[1].tasks",
                    "lists 00000000-0000-4000-8000-000000000000, whose column the same change set to none",
                    code: "document.inconsistent-relationship"),
                RuleViolation(
                    "tasks[0].column", "is empty, but columns[1].tasks lists 00000000-0000-4000-8000-000000000000",
                    code: "document.inconsistent-relationship")
            ]
        ) { project in
            project.tasks[0].column = nil
            project.columns[1].tasks.append(id(0))
        }
    }

    @Test func deletingAColumnDeletesItsTasks() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try controller.write(author: "test") { project in
            project.tasks[1].blockedBy = []
            project.columns.removeAll { $0.id == id(101) }
        }
        #expect(controller.document.tasks.map(\.id) == [id(0), id(1)], "task 2 went with its column")
        #expect(try BundleValidator.validate(controller.url, deep: true).findings.isEmpty)
    }

    @Test func deletingATaskTakesItOffItsColumn() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try controller.write(author: "test") { $0.tasks.remove(at: 0) }
        #expect(controller.document.columns[0].tasks == [id(1)])
    }

    /// What deleting task 2 without task 1, which waits for it, is refused with.
    private let task1WaitsForTask2 = [
        RuleViolation(
            "tasks[id=00000000-0000-4000-8000-000000000002]",
            """
            cannot be deleted while tasks[id=00000000-0000-4000-8000-000000000001].blockedBy lists it \
            (task.blockedBy denies it)
            """,
            code: "document.delete-denied")
    ]

    @Test func deletingATaskOthersWaitForIsDenied() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try expectRefused(controller, task1WaitsForTask2) { $0.tasks.remove(at: 2) }
        // Deleting the waiting task with it is fine: nothing is left waiting.
        try controller.write(author: "test") { $0.tasks.removeSubrange(1...2) }
        #expect(
            controller.document.tasks.map(\.id) == [id(0)] && controller.document.columns.map(\.tasks) == [[id(0)], []])
    }

    @Test func aCascadeThatWouldDeleteATaskOthersWaitForIsDenied() throws {
        // Deleting "Doing" would take task 2, which task 1 (on "To do", staying) waits for.
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try expectRefused(controller, task1WaitsForTask2) { $0.columns.remove(at: 1) }
    }

    @Test func aColumnMovedOffBeforeItsColumnIsDeletedStays() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try controller.write(author: "test") { project in
            project.tasks[2].column = id(100)
            project.columns.remove(at: 1)
        }
        #expect(controller.document.tasks.count == 3)
        #expect(controller.document.columns.map(\.tasks) == [[id(0), id(1), id(2)]])
    }

    @Test func danglingReferencesAreRefusedAndReportedByTheValidator() throws {
        let directory = try TemporaryDirectory()
        let controller = try board(directory)
        try expectRefused(
            controller,
            [
                RuleViolation(
                    "tasks[0].blockedBy[0]", "00000000-0000-4000-8000-000000000099 is not the id of any of tasks",
                    code: "document.dangling-reference"),
                RuleViolation("tasks[0].blockedBy[1]", "a task cannot wait for itself", code: "document.rule")
            ].reversed()
        ) { $0.tasks[0].blockedBy = [id(99), id(0)] }

        // A document written by someone else's tool, with references that lead nowhere.
        let document =
            #"{"name": "x", "columns": [{"id": "\#(id(100))", "name": "c", "tasks": ["\#(id(7))"]}], "tasks": [{"id": "\#(id(1))", "title": "t", "column": "\#(id(5))"}]}"#
        try Fixtures.saveVersion(of: controller.url, json: document, schema: "4.0.0", message: "By hand")
        let findings = try BundleValidator.validate(controller.url, deep: false).findings.filter {
            $0.code.hasPrefix("document.")
        }
        #expect(
            findings.map { "\($0.code) \($0.path ?? "") \($0.message)" } == [
                """
                document.dangling-reference columns[0].tasks[0] 00000000-0000-4000-8000-000000000007 is not the id \
                of any of tasks
                """,
                """
                document.dangling-reference tasks[0].column 00000000-0000-4000-8000-000000000005 is not the id of \
                any of columns
                """
            ])
        let validate = try Run.docctl(["validate", "board.dkproj"], in: directory.url)
        #expect(validate.status == 1)
        #expect(
            validate.output == """
                board.dkproj: 2 errors
                  error document.dangling-reference: entry 'document.json': version 2: columns[0].tasks[0]: 00000000-0000-4000-8000-000000000007 is not the id of any of tasks
                  error document.dangling-reference: entry 'document.json': version 2: tasks[0].column: 00000000-0000-4000-8000-000000000005 is not the id of any of columns

                """)
    }

    @Test func docctlEditsFollowTheRulesOnTheSampleBoard() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("board.dkproj", to: directory)
        let before = try Data(contentsOf: url)
        let board = try DocumentBundle(contentsOf: url).read(Project.self)
        let (copy, design, publish) = (
            board.tasks[0].id.uuidString, board.tasks[1].id.uuidString, board.tasks[3].id.uuidString
        )

        // "Doing" holds "Design the pages", which "Publish" (on "To do") waits for.
        let denied = try Run.docctl(["unset", "board.dkproj", "columns[1]"], in: directory.url)
        #expect(denied.status == 65)
        #expect(
            denied.standardError
                == """
                error: board.dkproj: tasks[id=\(design)]: cannot be deleted while tasks[id=\(publish)].blockedBy \
                lists it (task.blockedBy denies it)\n
                """
        )
        #expect(try Data(contentsOf: url) == before)

        // "To do" holds "Write the copy" and "Publish": both go, and the waiting with them.
        let cascade = try Run.docctl(["unset", "board.dkproj", "columns[0]", "--json"], in: directory.url)
        #expect(cascade.status == 0, "\(cascade.standardError)")
        let after = try DocumentBundle(contentsOf: url).read(Project.self)
        #expect(after.tasks.map(\.title) == ["Design the pages", "Buy the domain"])
        #expect(after.columns.map(\.name) == ["Doing", "Done"])
        #expect(!after.tasks.map(\.id.uuidString).contains(copy))

        // Moving a task by its column: the lists follow.
        let done = after.columns[1].id.uuidString
        #expect(try Run.docctl(["set", "board.dkproj", "tasks[0].column", done], in: directory.url).status == 0)
        #expect(
            try Run.docctl(["get", "board.dkproj", "columns[1].tasks"], in: directory.url).output == """
                [
                  "\(after.tasks[1].id)",
                  "\(after.tasks[0].id)"
                ]

                """)
        #expect(try Run.docctl(["validate", "--deep", "board.dkproj"], in: directory.url).status == 0)
    }
}
