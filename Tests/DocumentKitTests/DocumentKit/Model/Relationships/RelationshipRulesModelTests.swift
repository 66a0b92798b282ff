import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// `RelationshipRules` (linear) against `ReferenceRelationshipRules` (the direct,
/// quadratic reading it replaced) on random boards and random changes: the same document
/// and the same broken rules, in the same order, every time.
@Suite struct RelationshipRulesModelTests {
    private func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    /// A consistent board: tasks on columns (listed both ways), some waiting for others.
    private func board(_ random: inout SeededRandom) -> Project {
        var project = Project(name: "Model", createdAt: Date(timeIntervalSince1970: 0))
        let columnCount = Int.random(in: 0...4, using: &random)
        project.columns = (0..<columnCount).map { ProjectColumn(id: id(1000 + $0), name: "C\($0)") }
        for number in 0..<Int.random(in: 0...12, using: &random) {
            var task = ProjectTask(id: id(number), title: "T\(number)")
            if columnCount > 0, Bool.random(using: &random) {
                let column = Int.random(in: 0..<columnCount, using: &random)
                task.column = project.columns[column].id
                project.columns[column].tasks.append(task.id)
            }
            if number > 0, Int.random(in: 0..<3, using: &random) == 0 {
                task.blockedBy = [id(Int.random(in: 0..<number, using: &random))]
            }
            project.tasks.append(task)
        }
        return project
    }

    /// One to three random changes of the kinds users make: deleting, adding and moving
    /// tasks and columns, from either side of the inverse, consistently or not.
    private func change(_ project: inout Project, _ random: inout SeededRandom) {
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<8, using: &random) {
            case 0 where !project.tasks.isEmpty:
                project.tasks.remove(at: Int.random(in: 0..<project.tasks.count, using: &random))
            case 1 where !project.columns.isEmpty:
                project.columns.remove(at: Int.random(in: 0..<project.columns.count, using: &random))
            case 2:
                var task = ProjectTask(id: id(500 + Int.random(in: 0..<50, using: &random)), title: "New")
                if !project.columns.isEmpty, Bool.random(using: &random) {
                    task.column = project.columns.randomElement(using: &random)!.id
                }
                project.tasks.append(task)
            case 3 where !project.tasks.isEmpty:
                let index = Int.random(in: 0..<project.tasks.count, using: &random)
                project.tasks[index].column =
                    Bool.random(using: &random) ? project.columns.randomElement(using: &random)?.id : nil
            case 4 where !project.columns.isEmpty && !project.tasks.isEmpty:
                let column = Int.random(in: 0..<project.columns.count, using: &random)
                project.columns[column].tasks.append(project.tasks.randomElement(using: &random)!.id)
            case 5 where !project.columns.isEmpty:
                let column = Int.random(in: 0..<project.columns.count, using: &random)
                if !project.columns[column].tasks.isEmpty { project.columns[column].tasks.removeFirst() }
            case 6 where project.tasks.count > 1:
                let index = Int.random(in: 0..<project.tasks.count, using: &random)
                project.tasks[index].blockedBy.append(project.tasks.randomElement(using: &random)!.id)
            case 7:
                project.columns.append(
                    ProjectColumn(
                        id: id(2000 + Int.random(in: 0..<5, using: &random)), name: "New",
                        tasks: project.tasks.prefix(2).map(\.id)))
            default:
                break
            }
        }
    }

    @Test func agreesWithTheReferenceOnRandomBoardsAndChanges() {
        var random = SeededRandom(seed: 20_261_124)
        var refused = 0
        var cascaded = 0
        for _ in 0..<4000 {
            let before = board(&random)
            var changed = before
            change(&changed, &random)
            var fast = changed
            var reference = changed
            let fastViolations = RelationshipRules(relationships: Project.relationships).apply(
                before: before.relationshipSnapshots, to: &fast)
            let referenceViolations = ReferenceRelationshipRules(relationships: Project.relationships).apply(
                before: before.relationshipSnapshots, to: &reference)
            #expect(fast == reference)
            #expect(fastViolations == referenceViolations)
            if fast != reference || fastViolations != referenceViolations { return }
            if !fastViolations.isEmpty { refused += 1 }
            if fast.tasks.count < changed.tasks.count { cascaded += 1 }
        }
        // The changes reached every rule: some were refused, some cascaded.
        #expect(refused > 100)
        #expect(cascaded > 100)
    }

    @Test func agreesWithTheReferenceOnALibraryWhoseRulesRunTheOtherWay() {
        typealias Library = DeleteRuleTests.Library
        var random = SeededRandom(seed: 7)
        for _ in 0..<3000 {
            var library = Library()
            library.shelves = (0..<Int.random(in: 0...3, using: &random)).map { .init(id: id(100 + $0), books: []) }
            for number in 0..<Int.random(in: 0...8, using: &random) {
                var book = Library.Book(id: id(number), shelf: nil)
                if !library.shelves.isEmpty, Bool.random(using: &random) {
                    let shelf = Int.random(in: 0..<library.shelves.count, using: &random)
                    book.shelf = library.shelves[shelf].id
                    library.shelves[shelf].books.append(book.id)
                }
                library.books.append(book)
            }
            library.loans = (0..<Int.random(in: 0...3, using: &random)).map { number in
                .init(
                    id: id(200 + number),
                    books: library.books.isEmpty ? [] : [library.books.randomElement(using: &random)!.id])
            }
            let before = library
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where !library.books.isEmpty:
                    library.books.remove(at: Int.random(in: 0..<library.books.count, using: &random))
                case 1 where !library.shelves.isEmpty:
                    library.shelves.remove(at: Int.random(in: 0..<library.shelves.count, using: &random))
                case 2 where !library.loans.isEmpty: library.loans.remove(at: 0)
                case 3 where !library.books.isEmpty && !library.shelves.isEmpty:
                    library.books[Int.random(in: 0..<library.books.count, using: &random)].shelf =
                        library.shelves.randomElement(using: &random)!.id
                default: break
                }
            }
            var fast = library
            var reference = library
            let fastViolations = RelationshipRules(relationships: Library.relationships).apply(
                before: before.relationshipSnapshots, to: &fast)
            let referenceViolations = ReferenceRelationshipRules(relationships: Library.relationships).apply(
                before: before.relationshipSnapshots, to: &reference)
            #expect(fast == reference)
            #expect(fastViolations == referenceViolations)
            if fast != reference || fastViolations != referenceViolations { return }
        }
    }
}
