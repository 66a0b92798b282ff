import Foundation
import Testing

@testable import DocumentKit

/// The delete rules on a document type of their own, each used the other way round from
/// Project: a shelf with books on it cannot be deleted (deny), and a loan of a book goes
/// when the book does (cascade from the target's side).
@Suite struct DeleteRuleTests {
    struct Library: CodableDocument, Equatable {
        static let contentType = ContentType(
            identifier: "org.documentkit.test.library", filenameExtensions: ["dklib"],
            mimeType: "application/vnd.documentkit.test.library+zip", conformsTo: [.documentBundle])
        struct Shelf: Codable, Equatable, Identifiable {
            var id: UUID
            var books: [UUID]
        }
        struct Book: Codable, Equatable, Identifiable {
            var id: UUID
            var shelf: UUID?
        }
        struct Loan: Codable, Equatable, Identifiable {
            var id: UUID
            var books: [UUID]
        }
        var shelves: [Shelf] = []
        var books: [Book] = []
        var loans: [Loan] = []

        static var relationships: [DocumentRelationship<Self>] {
            [
                DocumentRelationship(
                    "shelf.books", from: \.shelves, named: "shelves", via: \.books, named: "books",
                    to: \.books, named: "books", inverse: \.shelf, named: "shelf",
                    deleteRule: .deny, inverseDeleteRule: .nullify),
                DocumentRelationship(
                    "loan.books", from: \.loans, named: "loans", via: \.books, named: "books",
                    to: \.books, named: "books", deleteRule: .nullify, inverseDeleteRule: .cascade)
            ]
        }
    }

    private func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    private func library(_ directory: TemporaryDirectory) throws -> DocumentController<Library> {
        let library = Library(
            shelves: [.init(id: id(1), books: [id(10), id(11)]), .init(id: id(2), books: [])],
            books: [.init(id: id(10), shelf: id(1)), .init(id: id(11), shelf: id(1))],
            loans: [.init(id: id(20), books: [id(10)]), .init(id: id(21), books: [id(11)])])
        let url = directory.url.appendingPathComponent("l.dklib")
        try DocumentController(newDocument: library, at: url).save(author: "test")
        return try DocumentController<Library>(contentsOf: url)
    }

    @Test func denyRefusesDeletingAShelfWithBooksAndAllowsAnEmptyOne() throws {
        let directory = try TemporaryDirectory()
        let controller = try library(directory)
        #expect {
            try controller.write(author: "test") { $0.shelves.remove(at: 0) }
        } throws: { error in
            (error as! DocumentKitError).violations == [
                RuleViolation(
                    "shelves[id=00000000-0000-4000-8000-000000000001]",
                    """
                    cannot be deleted while its books lists 2 of books (shelf.books denies it); delete or move \
                    them first
                    """,
                    code: "document.delete-denied")
            ]
        }
        #expect(controller.document.shelves.count == 2)
        try controller.write(author: "test") { $0.shelves.remove(at: 1) }
        #expect(controller.document.shelves.map(\.id) == [id(1)])
    }

    @Test func cascadeFromTheTargetDeletesTheLoansOfADeletedBookAndNullifyTakesItOffItsShelf() throws {
        let directory = try TemporaryDirectory()
        let controller = try library(directory)
        try controller.write(author: "test") { $0.books.remove(at: 0) }
        #expect(controller.document.loans.map(\.id) == [id(21)])
        #expect(controller.document.shelves[0].books == [id(11)])
        #expect(try DocumentBundle(contentsOf: controller.url).read(Library.self) == controller.document)
    }

    @Test func movingEveryBookOffAShelfThenDeletingItIsAllowedInOneTransaction() throws {
        let directory = try TemporaryDirectory()
        let controller = try library(directory)
        try controller.write(author: "test") { library in
            library.books[0].shelf = id(2)
            library.books[1].shelf = id(2)
            library.shelves.remove(at: 0)
        }
        #expect(controller.document.shelves == [.init(id: id(2), books: [id(10), id(11)])])
        #expect(controller.document.loans.count == 2)
    }
}
