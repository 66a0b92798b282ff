import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// The rules hold on a large document whichever record an edit names: the first, one in
/// the middle and the last of 3,000 tasks, each edited through docctl's path (spliced
/// where it can be): a delete that others wait for is denied, a permitted delete takes the
/// task off its column, a move keeps both sides in step, a cascade takes a column's tasks,
/// a blank title and a duplicate id are refused.
@Suite struct LargeDocumentRuleTests {
    static let count = 3_000

    private func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", number, number))!
    }
    private func columnID(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "C0000000-0000-4000-8000-%012X", number))!
    }

    /// Tasks on three columns by their number; the task after each of the first, middle
    /// and last waits for it (the last is waited for by the one before it).
    private func board(in directory: TemporaryDirectory) throws -> URL {
        var project = Project(name: "Large", createdAt: Date(timeIntervalSince1970: 1_767_225_600))
        project.columns = (0..<3).map { ProjectColumn(id: columnID($0), name: "Column \($0)") }
        for number in 0..<Self.count {
            var task = ProjectTask(id: id(number), title: "Task \(number)", column: columnID(number % 3))
            project.columns[number % 3].tasks.append(task.id)
            if number == 1 || number == Self.count / 2 + 1 { task.blockedBy = [id(number - 1)] }
            if number == Self.count - 2 { task.blockedBy = [id(Self.count - 1)] }
            project.tasks.append(task)
        }
        let url = directory.url.appendingPathComponent("large.dkproj")
        try DocumentController(newDocument: project, at: url).save(message: "Large", author: "Test")
        return url
    }

    private let metadata = SaveMetadata(
        author: "Test", message: "Edit", created: Date(timeIntervalSince1970: 1_767_312_000), compression: .zstd)

    private func edit(_ url: URL, _ edit: DocumentEdit) throws {
        _ = try BundleEdits.apply(at: url, metadata: metadata) { _ in edit }
    }

    private func refusal(_ url: URL, _ edit: DocumentEdit) -> String? {
        do {
            try self.edit(url, edit)
            return nil
        } catch {
            return (error as? DocumentKitError)?.message
        }
    }

    private func project(_ url: URL) throws -> Project { try DocumentBundle(contentsOf: url).read(Project.self) }

    @Test(arguments: [0, count / 2, count - 1])
    func rulesHoldWhereverTheRecordIs(position: Int) throws {
        let directory = try TemporaryDirectory()
        let url = try board(in: directory)
        let task = id(position)
        let waiter = position == Self.count - 1 ? Self.count - 2 : position + 1
        let path = { (rest: String) in try JSONPath(parsing: "tasks[\(position)]\(rest)") }
        let before = try Data(contentsOf: url)

        // Denied: another task waits for it; nothing is written.
        #expect(
            refusal(url, .remove(try path("")))
                == """
                cannot be deleted while tasks[id=\(id(waiter).uuidString)].blockedBy lists it (task.blockedBy \
                denies it)
                """
        )
        // A blank title, a duplicate id: refused at the record's path.
        #expect(refusal(url, .set(try path(".title"), .string(" "))) == "must not be empty")
        let other = (position + 7) % Self.count
        #expect(
            refusal(url, .set(try path(".id"), .string(id(other).uuidString)))?
                .contains("tasks[\(max(position, other))].id: \(id(other).uuidString) is used by another task") == true)
        #expect(try Data(contentsOf: url) == before)

        // A move from the task's side: the old column lets it go, the new one lists it last.
        let target = (position + 1) % 3
        try edit(url, .set(try path(".column"), .string(columnID(target).uuidString)))
        var moved = try project(url)
        #expect(!moved.columns[position % 3].tasks.contains(task))
        #expect(moved.columns[target].tasks.last == task)
        #expect(moved.tasks[position].column == columnID(target))

        // Permitted once nobody waits: the task goes, and its column no longer lists it.
        try edit(url, .set(try JSONPath(parsing: "tasks[\(waiter)].blockedBy"), .array([])))
        try edit(url, .remove(try path("")))
        moved = try project(url)
        #expect(moved.tasks.count == Self.count - 1)
        #expect(!moved.tasks.contains { $0.id == task })
        #expect(!moved.columns.contains { $0.tasks.contains(task) })
        #expect(moved.tasks.allSatisfy { !$0.blockedBy.contains(task) })
        try moved.validate()
    }

    @Test func aCascadeTakesAColumnsTasksUnlessOneIsWaitedForFromElsewhere() throws {
        let directory = try TemporaryDirectory()
        let url = try board(in: directory)
        // Column 0 holds task 0, waited for by task 1 on column 1: denied.
        #expect(
            refusal(url, .remove(try JSONPath(parsing: "columns[0]")))?.contains("(task.blockedBy denies it)") == true)
        // Column 1 holds tasks 1, 4, 7, …: some wait, none is waited for from another column.
        try edit(url, .remove(try JSONPath(parsing: "columns[1]")))
        let project = try project(url)
        #expect(project.columns.map(\.id) == [columnID(0), columnID(2)])
        #expect(project.tasks.count == Self.count - Self.count / 3)
        #expect(project.tasks.allSatisfy { $0.column != columnID(1) })
        try project.validate()
        // A task appended on a column is listed there, last.
        try edit(
            url,
            .set(
                try JSONPath(parsing: "tasks[+]"),
                .object(["title": .string("New"), "column": .string(columnID(2).uuidString)])))
        let appended = try self.project(url)
        #expect(appended.columns[1].tasks.last == appended.tasks.last!.id)
    }
}
