import Foundation
import Testing

@testable import DocumentKit

/// `ls`: a version's files as exports name them, text, -l and --json exactly.
@Suite struct ListCommandTests {
    /// `p.dkproj` with a thumbnail and an attachment list: photo.png and Photo.png (two
    /// blobs whose names clash on a case-insensitive disk) and notes.txt.
    private func bundleWithBlobs(in directory: URL) throws {
        try Run.succeeding(["new", "p.dkproj", "--name", "Garden", "--author", "ada"], in: directory)
        try Fixtures.write(Fixtures.png, to: "photo.png", in: directory)
        try Run.succeeding(["attach", "p.dkproj", "photo.png"], in: directory)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("other"), withIntermediateDirectories: false)
        try Fixtures.write(Fixtures.noise(300), to: "other/Photo.png", in: directory)
        try Fixtures.write(Data("water daily\n".utf8), to: "notes.txt", in: directory)
        try Run.succeeding(["set", "p.dkproj", "tasks[+]", #"{"title": "Dig"}"#], in: directory)
        try Run.succeeding(["attach", "p.dkproj", "other/Photo.png", "--as", "tasks[0].attachments[+]"], in: directory)
        try Run.succeeding(["attach", "p.dkproj", "notes.txt", "--as", "tasks[0].attachments[+]"], in: directory)
    }

    @Test func lsListsTheFilesAsExportsNameThem() throws {
        let directory = try TemporaryDirectory()
        try bundleWithBlobs(in: directory.url)
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        let png = ObjectDigest.of(Fixtures.png).hex
        let noise = ObjectDigest.of(Fixtures.noise(300)).hex
        let notes = ObjectDigest.of(Data("water daily\n".utf8)).hex
        let document = try bundle.tree(of: bundle.headVersion)[VersionLayout.documentName]!
        let (documentSize, documentDigest) = (document.fileSize!, document.knownDigest!.hex)
        // Sorted by path, as exports list them: the two clashing names take their digests' first digits.
        let files: [(path: String, digest: String, size: Int, type: String)] = [
            ("blobs/\(noise.prefix(12))-Photo.png", noise, 300, "image/png"),
            ("blobs/\(png.prefix(12))-photo.png", png, 67, "image/png"),
            ("blobs/notes.txt", notes, 12, "text/plain"),
            ("document.json", documentDigest, Int(documentSize), "application/json")
        ].sorted { $0.path < $1.path }
        let ls = try Run.succeeding(["ls", "p.dkproj"], in: directory.url)
        #expect(ls.output == files.map { $0.path + "\n" }.joined())
        #expect(files.map(\.path).suffix(2) == ["blobs/notes.txt", "document.json"])
        let long = try Run.succeeding(["ls", "-l", "p.dkproj"], in: directory.url)
        let width = files.map { String($0.size).count }.max()!
        #expect(
            long.output
                == files.map { file in
                    let size = String(repeating: " ", count: width - String(file.size).count) + String(file.size)
                    let type = file.type + String(repeating: " ", count: 16 - file.type.count)
                    return "\(file.digest.prefix(12))  \(size)  \(type)  \(file.path)\n"
                }.joined())
        #expect(long.output.hasSuffix("  application/json  document.json\n"))
        let json = try Run.succeeding(["ls", "p.dkproj", "--json", "blobs/notes.txt"], in: directory.url)
        #expect(
            json.output == """
                [
                  {
                    "digest" : "\(notes)",
                    "kind" : "blob",
                    "mediaType" : "text/plain",
                    "path" : "blobs/notes.txt",
                    "size" : 12,
                    "treePath" : "blobs/\(notes)"
                  }
                ]

                """)
        let documentJSON = try Run.succeeding(["ls", "p.dkproj", "--json", "document.json"], in: directory.url)
        #expect(
            documentJSON.output == """
                [
                  {
                    "digest" : "\(documentDigest)",
                    "kind" : "document",
                    "mediaType" : "application/json",
                    "path" : "document.json",
                    "size" : \(documentSize),
                    "treePath" : "document.json"
                  }
                ]

                """)
    }

    @Test func lsKeepsAFileOrAFoldersFilesOfAnyVersion() throws {
        let directory = try TemporaryDirectory()
        try bundleWithBlobs(in: directory.url)
        let png = ObjectDigest.of(Fixtures.png).hex
        let blobs = try Run.succeeding(["ls", "p.dkproj", "blobs"], in: directory.url).output
        #expect(blobs.split(separator: "\n").count == 3 && !blobs.contains("document.json"))
        #expect(try Run.succeeding(["ls", "p.dkproj", "blobs/"], in: directory.url).output == blobs)
        #expect(try Run.succeeding(["ls", "p.dkproj", "./blobs/"], in: directory.url).output == blobs)
        #expect(
            try Run.succeeding(["ls", "p.dkproj", "blobs/\(png)"], in: directory.url).output
                == "blobs/\(png.prefix(12))-photo.png\n", "by its tree path")
        #expect(
            try Run.succeeding(["ls", "p.dkproj", "."], in: directory.url).output
                == Run.succeeding(["ls", "p.dkproj"], in: directory.url).output)
        // Version 2 had one blob, with no other to clash with: its own name.
        #expect(
            try Run.succeeding(["ls", "p.dkproj", "--version", "2"], in: directory.url).output
                == "blobs/photo.png\ndocument.json\n")
        #expect(try Run.succeeding(["ls", "p.dkproj", "--version", "1"], in: directory.url).output == "document.json\n")
        expectFailure(
            try Run.docctl(["ls", "p.dkproj", "--version", "1", "blobs"], in: directory.url), status: 65,
            containing: "error: p.dkproj: version 1 has no file or folder 'blobs'\n")
        expectFailure(
            try Run.docctl(["ls", "p.dkproj", "blob"], in: directory.url), status: 65,
            containing: "error: p.dkproj: version 5 has no file or folder 'blob'\n")
        expectFailure(
            try Run.docctl(["ls", "nope.dkproj"], in: directory.url), status: 66,
            containing: "error: nope.dkproj: cannot open: No such file or directory\n")
    }
}
