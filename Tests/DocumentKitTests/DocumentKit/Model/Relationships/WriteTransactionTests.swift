import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// `DocumentController.write { }`: all of a transaction's changes are one version, or
/// nothing is saved and the document is as it was.
@Suite struct WriteTransactionTests {
    private func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    private func savedController(_ directory: TemporaryDirectory) throws -> DocumentController<Project> {
        let url = directory.url.appendingPathComponent("p.dkproj")
        try DocumentController(newDocument: Fixtures.project(), at: url).save(message: "Start", author: "ada")
        return try DocumentController<Project>(contentsOf: url)
    }

    @Test func manyChangesAreOneVersion() throws {
        let directory = try TemporaryDirectory()
        let controller = try savedController(directory)
        let version = try #require(
            try controller.write(message: "Plan the week", author: "ada") { project in
                project.name = "Garden 2027"
                project.tasks.append(ProjectTask(id: id(10), title: "Water the beds"))
                project.tasks.append(ProjectTask(id: id(11), title: "Weed"))
                project.tasks.removeAll { $0.id == id(0) }
                project.tasks[0].status = .done
            })
        #expect(version.number == 2 && version.message == "Plan the week")
        let bundle = try DocumentBundle(contentsOf: controller.url)
        #expect(try bundle.manifest.versions.count == 2)
        let saved = try bundle.read(Project.self)
        #expect(saved == controller.document)
        #expect(
            saved.name == "Garden 2027" && saved.tasks.map(\.title) == ["Task 1", "Task 2", "Water the beds", "Weed"])
        #expect(saved.tasks[0].status == .done)
    }

    @Test func aThrownErrorSavesNothingAndLeavesTheDocumentAsItWas() throws {
        struct Abandoned: Error {}
        let directory = try TemporaryDirectory()
        let controller = try savedController(directory)
        let before = try Data(contentsOf: controller.url)
        let document = controller.document
        #expect(throws: Abandoned.self) {
            try controller.write(author: "test") { project in
                project.tasks.removeAll()
                project.name = "Gone"
                throw Abandoned()
            }
        }
        #expect(controller.document == document)
        #expect(try Data(contentsOf: controller.url) == before)
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"], "no temporary file left")
    }

    @Test func everyBrokenRuleIsListedWithItsPathAndNothingIsSaved() throws {
        let directory = try TemporaryDirectory()
        let controller = try savedController(directory)
        let before = try Data(contentsOf: controller.url)
        let document = controller.document
        // A reference to bytes nobody has: decoded without a bundle to load them from.
        let digest = String(repeating: "ab", count: 32)
        let missing = try JSONDecoder().decode(
            BlobReference.self, from: Data(#"{"$blob": "\#(digest)", "size": 3}"#.utf8))
        do {
            try controller.write(author: "test") { project in
                project.tasks[1].title = "  "
                project.tasks.append(ProjectTask(id: id(0), title: "Twin"))
                project.thumbnail = missing
            }
            Issue.record("the transaction was saved")
        } catch let error as DocumentKitError {
            #expect(error.code == .invalidDocument && error.exitStatus == 65)
            #expect(
                error.violations == [
                    RuleViolation("tasks[1].title", "must not be empty"),
                    RuleViolation("tasks[3].id", "00000000-0000-4000-8000-000000000000 is used by another task"),
                    RuleViolation(
                        "thumbnail", "refers to blob abababababab, which is not in the bundle",
                        code: "document.missing-blob")
                ])
            #expect(
                error.description
                    == """
                    \(controller.url.relativePath): 3 rules are broken: tasks[1].title: must not be empty; \
                    tasks[3].id: 00000000-0000-4000-8000-000000000000 is used by another task; thumbnail: refers \
                    to blob abababababab, which is not in the bundle
                    """
            )
        }
        #expect(controller.document == document)
        #expect(try Data(contentsOf: controller.url) == before)
    }

    @Test func aMissingBlobAloneIsRefusedAtItsPath() throws {
        let directory = try TemporaryDirectory()
        let controller = try savedController(directory)
        let missing = try JSONDecoder().decode(
            BlobReference.self, from: Data(#"{"$blob": "\#(String(repeating: "cd", count: 32))", "size": 3}"#.utf8))
        #expect {
            try controller.write(author: "test") { $0.tasks[2].attachments = [missing] }
        } throws: { error in
            let error = error as! DocumentKitError
            return error.location == "tasks[2].attachments[0]"
                && error.violations.map(\.code) == ["document.missing-blob"]
        }
        #expect(try DocumentBundle(contentsOf: controller.url).manifest.versions.count == 1)
    }

    @Test func aTransactionThatChangesNothingSavesNothing() throws {
        let directory = try TemporaryDirectory()
        let controller = try savedController(directory)
        let before = try Data(contentsOf: controller.url)
        #expect(
            try controller.write(author: "test") { project in
                project.tasks.append(ProjectTask(title: "Brief"))
                project.tasks.removeLast()
            } == nil)
        #expect(try Data(contentsOf: controller.url) == before)
    }

    @Test func aTransactionOverAnotherWritersSaveIsAConflictAndKeepsTheDocument() throws {
        let directory = try TemporaryDirectory()
        let alice = try savedController(directory)
        let bob = try DocumentController<Project>(contentsOf: alice.url)
        try bob.write(message: "Bob's", author: "test") { $0.name = "Bob's garden" }
        let afterBob = try Data(contentsOf: alice.url)
        let document = alice.document
        #expect {
            try alice.write(author: "test") { $0.name = "Alice's garden" }
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .conflict && error.message.contains(bob.version!.id.prefix(12))
        }
        #expect(alice.document == document, "the transaction is not applied")
        #expect(try Data(contentsOf: alice.url) == afterBob, "bob's version is not written over")
        try alice.revert()
        #expect(try alice.write(author: "test") { $0.name = "Alice's garden" }?.number == 3)
    }

    @Test func docctlEditsAreTransactionsThatListEveryBrokenRule() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "P"], in: directory.url)
        let url = directory.url.appendingPathComponent("p.dkproj")
        let before = try Data(contentsOf: url)
        let twin = "11111111-1111-4111-8111-111111111111"
        let tasks =
            #"[{"title": ""}, {"title": "a", "id": "\#(twin)"}, {"title": "b", "id": "\#(twin)", "tags": [" "]}]"#
        let broken = try Run.docctl(["set", "p.dkproj", "tasks", tasks], in: directory.url)
        #expect(broken.status == 65)
        #expect(
            broken.standardError
                == """
                error: p.dkproj: 3 rules are broken: tasks[0].title: must not be empty; tasks[2].tags[0]: must not \
                be empty; tasks[2].id: \(twin) is used by another task\n
                """
        )
        let blob = String(repeating: "ef", count: 32)
        let missing = try Run.docctl(
            ["set", "p.dkproj", "thumbnail", #"{"$blob": "\#(blob)", "size": 1}"#], in: directory.url)
        #expect(missing.status == 65)
        #expect(
            missing.standardError
                == "error: p.dkproj: thumbnail: refers to blob efefefefefef, which is not in the bundle\n")
        #expect(try Data(contentsOf: url) == before, "nothing saved")
    }
}
