import Foundation
import Testing

@testable import DocumentKit

/// A folder export appears in one rename, every byte on disk first: each file and folder
/// flushed as it is written up to `flushedFilesLimit` files, and past it the file system
/// flushed once (a site with a page a version has tens of thousands).
@Suite struct ExportedFolderTests {
    @Test(arguments: [3, ExportedFolder.flushedFilesLimit + 40])
    func everyFileAndFolderArrivesWhicheverWayItIsFlushed(count: Int) throws {
        let directory = try TemporaryDirectory()
        var files = [ExportedFile(path: "pages", node: nil)]
        for index in 0..<count {
            files.append(ExportedFile(path: "pages/\(index)", node: nil))
            files.append(
                ExportedFile(
                    path: "pages/\(index)/index.html",
                    node: FileWrapper(regularFileWithContents: Data("page \(index)\n".utf8))))
        }
        let output = directory.url.appendingPathComponent("site")
        let (written, bytes) = try ExportedFolder.write(files, to: output, replace: false)
        #expect(written == count)
        #expect(bytes == UInt64(files.reduce(0) { $0 + Int($1.node?.fileSize ?? 0) }))
        for index in [0, count - 1] {
            #expect(
                try String(contentsOf: output.appendingPathComponent("pages/\(index)/index.html"), encoding: .utf8)
                    == "page \(index)\n")
        }
        #expect(Fixtures.listing(output.appendingPathComponent("pages")).count == count)
        // Nothing but the site beside it: the staging folder went into place.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["site"])
    }
}
