import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

@Suite struct DocumentControllerTests {
    @Test func everySaveIsAVersionAndOldVersionsStayReadable() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("garden.dkproj")
        let controller = DocumentController(newDocument: Fixtures.project(), at: url)
        let first = try #require(try controller.save(message: "Start", author: "ada"))
        controller.document.tasks[0].status = .done
        let second = try #require(try controller.save(message: "Done", author: "ada"))

        #expect(first.number == 1 && second.number == 2)
        #expect(first.parents.isEmpty && second.parents == [first.id])
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.manifest.versions.map(\.message) == ["Start", "Done"])
        #expect(try bundle.read(Project.self, version: bundle.version(named: "1")).tasks[0].status == .todo)
        #expect(try bundle.read(Project.self).tasks[0].status == .done)
        #expect(try bundle.version(named: "head~1") == first)
        #expect(try bundle.version(named: String(second.id.prefix(8))) == second)
    }

    @Test func savingAnUnchangedDocumentMakesNoVersion() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        let controller = DocumentController(newDocument: Fixtures.project(), at: url)
        try controller.save(author: "test")
        let before = try Data(contentsOf: url)
        #expect(try controller.save(author: "test") == nil)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func blobsAreStoredOnceAndLoadedLazily() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        let picture = Fixtures.noise(300_000)
        var project = Fixtures.project()
        project.thumbnail = BlobReference(data: picture, mediaType: "image/png")
        let controller = DocumentController(newDocument: project, at: url)
        try controller.save(author: "test")
        for index in 0..<5 {
            controller.document.name = "Garden \(index)"
            try controller.save(author: "test")
        }
        let bundle = try DocumentBundle(contentsOf: url)
        let blobObjects = try bundle.manifest.objects.values.filter { $0.size == UInt64(picture.count) }
        #expect(blobObjects.count == 1, "one copy of the blob across six versions")
        #expect(try Data(contentsOf: url).count < 2 * picture.count)
        let reopened = try bundle.read(Project.self)
        let thumbnail = try #require(reopened.thumbnail)
        #expect(thumbnail.file?.knownDigest == thumbnail.digest, "not loaded until asked")
        #expect(try thumbnail.data() == picture)
    }

    @Test func aSaveAfterSomeoneElseSavedIsAConflictAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        try DocumentController(newDocument: Fixtures.project(), at: url).save(message: "one", author: "test")
        let alice = try DocumentController<Project>(contentsOf: url)
        let bob = try DocumentController<Project>(contentsOf: url)
        alice.document.name = "Alice's"
        try alice.save(message: "alice", author: "test")
        let afterAlice = try Data(contentsOf: url)
        bob.document.name = "Bob's"
        #expect {
            try bob.save(message: "bob", author: "test")
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .conflict && error.message.contains("opened at version 1")
                && error.message.contains("now at version 2")
        }
        #expect(try Data(contentsOf: url) == afterAlice)
        #expect(bob.document.name == "Bob's", "the unsaved edit is kept in memory")
        try bob.revert()
        #expect(bob.document.name == "Alice's")
    }

    @Test func aSaveKeepsPermissionsAndWritesThroughSymbolicLinks() throws {
        let directory = try TemporaryDirectory()
        let target = directory.url.appendingPathComponent("real.dkproj")
        try DocumentController(newDocument: Fixtures.project(), at: target).save(author: "test")
        chmod(target.path, 0o640)
        let link = directory.url.appendingPathComponent("link.dkproj")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real.dkproj")

        let controller = try DocumentController<Project>(contentsOf: link)
        controller.document.name = "Through the link"
        try controller.save(author: "test")

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real.dkproj")
        #expect(try DocumentBundle(contentsOf: target).read(Project.self).name == "Through the link")
        var info = stat()
        stat(target.path, &info)
        #expect(info.st_mode & 0o777 == 0o640)
        #expect(Fixtures.listing(directory.url) == ["link.dkproj", "real.dkproj"], "no temporary file left")
    }

    @Test func aFailedSaveLeavesTheBundleByteIdenticalAndNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        let attachment = try Fixtures.write(Fixtures.noise(10_000), to: "a.bin", in: directory.url)
        var project = Fixtures.project()
        project.thumbnail = try BlobReference(contentsOf: attachment, mediaType: "application/octet-stream")
        let controller = DocumentController(newDocument: Fixtures.project(), at: url)
        try controller.save(author: "test")
        let before = try Data(contentsOf: url)
        // The attached file changes between attaching and saving: the save must refuse.
        controller.document = project
        try Fixtures.noise(10_000, seed: 7).write(to: attachment)
        #expect {
            try controller.save(author: "test")
        } throws: { error in
            (error as! DocumentKitError).message.contains("changed after it was attached")
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(Fixtures.listing(directory.url) == ["a.bin", "p.dkproj"])
    }

    @Test func creatingOverAnExistingFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.write(Data("precious".utf8), to: "p.dkproj", in: directory.url)
        #expect {
            try DocumentController(newDocument: Fixtures.project(), at: url).save(author: "test")
        } throws: { error in
            (error as! DocumentKitError).code == .cannotCreateOutput
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "precious")
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"])
    }

    @Test func aGenericFileDocumentRoundTripsItsTree() throws {
        struct Notes: FileDocument {
            static let readableContentTypes = [
                ContentType(
                    identifier: "com.example.notes", mimeType: "application/vnd.example.notes+zip",
                    conformsTo: [.documentBundle])
            ]
            var files: [String: Data]
            init(files: [String: Data]) { self.files = files }
            init(configuration: ReadConfiguration) throws {
                files = [:]
                for (name, file) in configuration.file["pages"]?.fileWrappers ?? [:] {
                    files[name] = try file.regularFileContents()
                }
            }
            func fileWrapper(configuration: WriteConfiguration) throws -> FileWrapper {
                FileWrapper(directoryWithFileWrappers: [
                    "document.json": FileWrapper(regularFileWithContents: Data("{}".utf8)),
                    "pages": FileWrapper(
                        directoryWithFileWrappers: files.mapValues { FileWrapper(regularFileWithContents: $0) })
                ])
            }
        }
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("n.notes")
        try DocumentController(newDocument: Notes(files: ["a.txt": Data("A".utf8), "b.txt": Data("B".utf8)]), at: url)
            .save(author: "test")
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(bundle.mimeType == "application/vnd.example.notes+zip")
        #expect(try bundle.read(Notes.self).files == ["a.txt": Data("A".utf8), "b.txt": Data("B".utf8)])
    }
}
