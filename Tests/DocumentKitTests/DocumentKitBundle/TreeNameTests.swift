import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// A tree's names follow one rule when written and when read (FORMAT.md §6), so that
/// DocumentKit never writes a bundle it then refuses, and every version can be exported
/// to a folder on Linux, macOS and Windows. (Names equal after normalization, "é" and
/// "e\u{301}", are one key of a Swift dictionary: a `FileWrapper` cannot hold both.)
@Suite struct TreeNameTests {
    static var document: FileWrapper { FileWrapper(regularFileWithContents: Data(#"{"name": "N"}"#.utf8)) }

    @Test(arguments: [
        ["evil\nerror: forged"], ["tab\there"], ["\u{1B}[2J"], [String(repeating: "n", count: 256)],
        ["Readme", "README"], ["\u{C4}", "\u{E4}"], [".."], ["a\\b"]
    ])
    func theWriterRefusesWhatReadersRefuse(_ names: [String]) throws {
        let directory = try TemporaryDirectory()
        var children = Dictionary(
            uniqueKeysWithValues: names.map { ($0, FileWrapper(regularFileWithContents: Data("x".utf8))) })
        children[VersionLayout.documentName] = Self.document
        let request = BundleWriter.Request(
            root: FileWrapper(directoryWithFileWrappers: children), contentType: Project.contentType.identifier,
            mimeType: Project.contentType.mimeType,
            schema: "4.0.0", metadata: SaveMetadata(author: "t", message: "m"),
            base: nil, destination: directory.url.appendingPathComponent("t.dkproj"), replace: false)
        let error = #expect(throws: DocumentKitError.self) { try BundleWriter.write(request) }
        #expect(error?.code == .invalidDocument, "\(String(describing: error))")
        #expect(error.map { !$0.description.contains("\n") } ?? false)
        #expect(Fixtures.listing(directory.url).isEmpty)
    }

    @Test func theLongestNameIsWrittenAndRead() throws {
        let directory = try TemporaryDirectory()
        let name = String(repeating: "n", count: TreeObject.maxNameBytes)
        let url = directory.url.appendingPathComponent("t.dkproj")
        let root = FileWrapper(directoryWithFileWrappers: [
            VersionLayout.documentName: Self.document,
            name: FileWrapper(regularFileWithContents: Data("x".utf8))
        ])
        _ = try BundleWriter.write(
            BundleWriter.Request(
                root: root, contentType: Project.contentType.identifier, mimeType: Project.contentType.mimeType,
                schema: "4.0.0",
                metadata: SaveMetadata(author: "t", message: "m"), base: nil, destination: url, replace: false))
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.tree(of: bundle.headVersion)[name]?.regularFileContents() == Data("x".utf8))
    }
}
