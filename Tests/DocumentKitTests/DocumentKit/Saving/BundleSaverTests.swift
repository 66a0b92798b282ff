import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// The one save path (issue 25, item 4): the head check and its message are one for every
/// kind of write, and a refused write leaves the file as it was.
@Suite struct BundleSaverTests {
    /// A bundle of two versions, and the first one.
    private func twoVersions(in directory: TemporaryDirectory) throws -> (URL, BundleVersion, BundleVersion) {
        let url = directory.url.appendingPathComponent("p.dkproj")
        let controller = DocumentController(newDocument: Fixtures.project(), at: url)
        let first = try #require(try controller.save(message: "one", author: "test"))
        controller.document.name = "Allotment"
        let second = try #require(try controller.save(message: "two", author: "test"))
        return (url, first, second)
    }

    @Test func everyWriteBasedOnAnOldHeadIsRefusedInTheSameWordsAndWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let (url, first, second) = try twoVersions(in: directory)
        let before = try Data(contentsOf: url)
        let expected =
            """
            changed since it was opened: opened at version 1 (\(first.shortID)), now at version 2 \
            (\(second.shortID)); nothing was
            """

        let edit = #expect(throws: DocumentKitError.self) {
            try BundleEdits.apply(at: url, expectedHead: first.id, metadata: SaveMetadata(author: "test")) { _ in
                .set(try JSONPath(parsing: "name"), .string("Orchard"))
            }
        }
        #expect(edit?.code == .conflict && edit?.message == "\(expected) saved")

        let other = directory.url.appendingPathComponent("other.dkproj")
        try FileManager.default.copyItem(at: url, to: other)
        let pull = #expect(throws: DocumentKitError.self) {
            try BundlePuller.pull(
                into: url, from: other, metadata: SaveMetadata(author: "test"), expectedHead: first.id)
        }
        #expect(pull?.code == .conflict && pull?.message == "\(expected) pulled")
        #expect(pull?.path == url.relativePath)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aSaveOfTheHeadsOwnContentWritesNothing() throws {
        let directory = try TemporaryDirectory()
        let (url, _, second) = try twoVersions(in: directory)
        let before = try Data(contentsOf: url)
        let saved = try BundleSaver.save(at: url, expectedHead: second.id, metadata: SaveMetadata(author: "test")) {
            bundle in
            SaveContent(
                root: try bundle.tree(of: bundle.headVersion), contentType: bundle.storedContentType,
                schema: bundle.headVersion.schema)
        }
        #expect(saved.version == nil && saved.previous == second)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aNewBundleIsNeverWrittenOverAnExistingFileUnlessAsked() throws {
        let directory = try TemporaryDirectory()
        let (url, _, _) = try twoVersions(in: directory)
        let before = try Data(contentsOf: url)
        let content = try SaveContent(
            document: Fixtures.project(name: "Other"), contentType: Project.contentType, over: nil)
        #expect(throws: DocumentKitError.self) {
            try BundleSaver.create(at: url, replace: false, content, metadata: SaveMetadata(author: "test"))
        }
        #expect(try Data(contentsOf: url) == before)
        let replaced = try BundleSaver.create(at: url, replace: true, content, metadata: SaveMetadata(author: "test"))
        #expect(try DocumentBundle(contentsOf: url).manifest.versions == [replaced])
    }
}
