import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// `merge(_:_:base:)` on documents: the JSON merge, then the type's schema and rules, so
/// that a merge both sides' values allow but whose result breaks a rule is a conflict.
@Suite struct DocumentMergeTests {
    private let created = Date(timeIntervalSince1970: 1_767_225_600)
    private let first = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!
    private let second = UUID(uuidString: "00000000-0000-4000-8000-000000000002")!
    private let third = UUID(uuidString: "00000000-0000-4000-8000-000000000003")!

    private func base() -> Project {
        Project(
            name: "Garden", createdAt: created,
            tasks: [
                ProjectTask(id: first, title: "Buy seeds"),
                ProjectTask(id: second, title: "Dig")
            ])
    }

    @Test func editsOfDifferentRecordsMergeIntoOneDocument() throws {
        var ours = base()
        ours.tasks[0].status = .done
        var theirs = base()
        theirs.name = "Vegetable garden"
        theirs.tasks.append(ProjectTask(id: third, title: "Water"))
        let result = try Project.merge(ours, theirs, base: base())
        #expect(result.conflicts.isEmpty)
        let merged = try #require(result.merged)
        #expect(merged.name == "Vegetable garden")
        #expect(merged.tasks.map(\.id) == [first, second, third])
        #expect(merged.tasks[0].status == .done)
    }

    @Test func theSameFieldChangedTwoWaysIsAConflictWithBothValues() throws {
        var ours = base()
        ours.tasks[1].title = "Dig the beds"
        var theirs = base()
        theirs.tasks[1].title = "Dig deeper"
        let result = try Project.merge(ours, theirs, base: base())
        #expect(result.merged == nil)
        #expect(
            result.conflicts == [
                JSONMerge.Conflict(
                    path: "tasks[id=\(second.uuidString)].title",
                    base: .string("Dig"), ours: .string("Dig the beds"), theirs: .string("Dig deeper"))
            ])
    }

    @Test func aMergeThatBreaksARelationshipIsAConflict() throws {
        // Ours deletes a task; theirs makes another task wait for it. Each side's values
        // merge cleanly, but the merged task would wait for a task that is gone.
        var ours = base()
        ours.tasks.removeAll { $0.id == first }
        var theirs = base()
        theirs.tasks[1].blockedBy = [first]
        let result = try Project.merge(ours, theirs, base: base())
        #expect(result.merged == nil)
        #expect(
            result.conflicts == [
                JSONMerge.Conflict(
                    path: "tasks[0].blockedBy[0]", base: nil, ours: nil, theirs: nil,
                    rule: "\(first.uuidString) is not the id of any of tasks")
            ])
    }

    @Test func blobsOfBothSidesAreUnitedAndStayReadable() throws {
        let directory = try TemporaryDirectory()
        let cover = try Fixtures.write(Fixtures.png, to: "cover.png", in: directory.url)
        var ours = base()
        ours.thumbnail = try BlobReference(contentsOf: cover, mediaType: "image/png")
        var theirs = base()
        theirs.tasks[0].attachments = [BlobReference(data: Data("notes".utf8), mediaType: "text/plain")]
        let merged = try #require(try Project.merge(ours, theirs, base: base()).merged)
        #expect(try merged.thumbnail?.data() == Fixtures.png)
        #expect(try merged.tasks[0].attachments.first?.data() == Data("notes".utf8))
    }
}
