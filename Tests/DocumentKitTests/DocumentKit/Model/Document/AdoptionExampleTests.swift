import DocumentKit
import Foundation
import Testing

// The adoption example of the README ("Use it in your app"), compiled and run as written:
// an app's own document type, without SampleProject and without @testable.

/// A note with a picture: the app's own document type.
struct Memo: CodableDocument {
    static let contentType = ContentType(
        identifier: "com.example.memo", filenameExtensions: ["memo"],
        mimeType: "application/vnd.example.memo+zip", conformsTo: [.documentBundle])
    static let schemaVersion = SchemaVersion(1, 0, 0)

    var title: String
    var text = ""
    var picture: BlobReference?

    func ruleViolations() -> [RuleViolation] {
        [RuleViolation.blank(title, at: "title")].compactMap { $0 }
    }
}

@Suite struct AdoptionExampleTests {
    @Test func theReadmesExampleRunsAsWritten() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("groceries.memo")
        let pictureURL = directory.url.appendingPathComponent("list.png")
        try Fixtures.png.write(to: pictureURL)

        // --- README: Use it in your app ---
        var memo = Memo(title: "Groceries")
        memo.picture = try BlobReference(contentsOf: pictureURL, mediaType: "image/png")
        let controller = DocumentController(newDocument: memo, at: url)
        try controller.save(message: "Start", author: "Ada")

        controller.document.text = "milk, eggs"
        try controller.save(message: "Add the list", author: "Ada")

        let bundle = try DocumentBundle(contentsOf: url)
        var log: [String] = []
        for version in try bundle.manifest.versions {
            log.append("\(version.number) \(version.author): \(version.message)")
        }
        let first = try bundle.read(Memo.self, version: bundle.version(named: "1"))
        let picture = try first.picture?.data()
        // --- end ---

        #expect(log == ["1 Ada: Start", "2 Ada: Add the list"])
        #expect(first.text == "")
        #expect(try bundle.read(Memo.self).text == "milk, eggs")
        #expect(picture == Fixtures.png)
        #expect(try bundle.manifest.contentType == "com.example.memo")
        // A rule of the type refuses a save, and nothing is written: what is saved reads back.
        controller.document.title = " "
        let refusal = #expect(throws: DocumentKitError.self) { try controller.save(author: "Ada") }
        #expect(refusal?.code == .invalidDocument)
        #expect(refusal?.violations.map(\.path) == ["title"])
        #expect(refusal?.description == "\(url.relativePath): title: must not be empty")
        #expect(try DocumentBundle(contentsOf: url).manifest.versions.count == 2)
    }
}
