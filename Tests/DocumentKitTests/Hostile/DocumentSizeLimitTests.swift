import Foundation
import Testing

@testable import DocumentKit

/// A document larger than 64 MiB is not parsed: `import` refuses it by its size before
/// reading it, and the commands that parse a bundle's document (edits, `get`, `diff`)
/// refuse it by the size its tree records; `validate` reports it. Parsing takes a few
/// times a document's size, so this is what keeps a command within about 4 times its
/// document and 64 MiB.
@Suite struct DocumentSizeLimitTests {
    private let message = "the document is 65.0 MiB; documents larger than 64 MiB are not parsed (FORMAT.md, Limits)"

    /// A file of 65 MiB that costs no disk: a hole, which must never be read.
    private func sparseDocument(at url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("{".utf8))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
    }

    @Test func importRefusesALargerDocumentBeforeReadingIt() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("folder"), withIntermediateDirectories: false)
        try sparseDocument(at: directory.url.appendingPathComponent("folder/document.json"))
        try sparseDocument(at: directory.url.appendingPathComponent("big.json"))
        for (source, named) in [("folder", "folder/document.json"), ("big.json", "big.json")] {
            let result = try BoundedRun().docctl(["import", source, "-o", "x.dkproj"], in: directory.url)
            #expect(result.status == 65)
            #expect(result.standardError == "error: \(named): \(message)\n")
            #expect(result.standardOutput.isEmpty)
            if BoundedRun.boundsMemory {
                #expect(result.maxResidentBytes < 64 << 20, "refused unread: \(result.maxResidentBytes >> 20) MiB")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("x.dkproj")))
    }

    @Test func aBundlesDocumentIsRefusedForParsingByItsRecordedSize() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        try DocumentController(newDocument: Fixtures.project(), at: url).save(author: "test")
        var limits = BundleLimits.default
        limits.maxDocumentBytes = 100
        let bundle = try DocumentBundle(contentsOf: url, limits: limits)
        let size = try bundle.documentData(of: bundle.headVersion).count
        #expect(size > 100, "the document is read in full by what only copies it")
        #expect {
            _ = try bundle.documentDataForParsing(of: bundle.headVersion)
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .malformedInput && error.location == "entry 'document.json'"
                && error.message
                    == """
                    the document is \(String(format: "%.1f", Double(size) / 1_048_576)) MiB; documents larger than \
                    0 MiB are not parsed (FORMAT.md, Limits)
                    """
        }
        let report = try BundleValidator.validate(url, limits: limits)
        #expect(report.findings.map(\.code).contains("document.too-large"))
    }
}
