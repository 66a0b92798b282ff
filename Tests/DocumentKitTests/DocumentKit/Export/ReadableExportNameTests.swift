import DocumentKit
import Foundation
import SampleProject
import Testing

/// Exports name blobs by the names they were attached under (FORMAT.md §7, "Exports").
@Suite struct ReadableExportNameTests {
    static let photo = Data("photo bytes".utf8), other = Data("another photo".utf8)
    static let unnamed = Data("no name".utf8), notes = Data("notes".utf8)

    /// A project whose blobs are `photo.png` (thumbnail), `PHOTO.png` (other bytes, so the
    /// two clash by the collision key), one without a name and `notes.txt`.
    static func clashingBundle(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("p.dkproj")
        var project = Project(name: "Clash", createdAt: Date(timeIntervalSince1970: 1_767_225_600))
        project.thumbnail = try BlobReference(data: photo, mediaType: "image/png", name: "photo.png")
        project.tasks = [
            ProjectTask(
                title: "Look",
                attachments: [
                    try BlobReference(data: other, mediaType: "image/png", name: "PHOTO.png"),
                    BlobReference(data: unnamed, mediaType: "application/octet-stream"),
                    try BlobReference(data: notes, mediaType: "text/plain", name: "notes.txt")
                ])
        ]
        try DocumentController(newDocument: project, at: url).save(
            message: "Start", author: "Ada", created: Date(timeIntervalSince1970: 1_767_225_600))
        return url
    }

    /// The exported blob paths the rule gives the clashing bundle.
    static var clashingBlobPaths: [String] {
        [
            "blobs/\(ObjectDigest.of(photo).hex.prefix(12))-photo.png",
            "blobs/\(ObjectDigest.of(other).hex.prefix(12))-PHOTO.png",
            "blobs/\(ObjectDigest.of(unnamed).hex)",
            "blobs/notes.txt"
        ].sorted()
    }

    @Test func clashingNamesArePrefixedAndTheListingsArePinned() throws {
        try #require(ExternalTool.unzip.isAvailable, "unzip is installed")
        try #require(ExternalTool.bsdtar.isAvailable, "bsdtar is installed")
        let directory = try TemporaryDirectory()
        let bundle = try Self.clashingBundle(in: directory)
        let expected = ["blobs/"] + Self.clashingBlobPaths + ["document.json"]
        #expect(try Run.docctl(["export", bundle.path, "--format", "zip", "-o", directory.path("p.zip")]).status == 0)
        #expect(
            try ExternalTool.unzip.run(["-Z1", directory.path("p.zip")]).output == expected.joined(separator: "\n")
                + "\n")
        #expect(
            try Run.docctl(["export", bundle.path, "--format", "tar.zst", "-o", directory.path("p.tar.zst")]).status
                == 0)
        #expect(
            try ExternalTool.bsdtar.run(["-tf", directory.path("p.tar.zst")]).output == expected.joined(separator: "\n")
                + "\n")
        #expect(try Run.docctl(["export", bundle.path, "--format", "dir", "-o", directory.path("p")]).status == 0)
        #expect(
            Fixtures.listing(directory.url.appendingPathComponent("p/blobs")).map { "blobs/" + $0 }
                == Self.clashingBlobPaths.sorted())
        let folderPhoto = directory.url.appendingPathComponent(
            "p/\(Self.clashingBlobPaths.first { $0.hasSuffix("-photo.png") }!)")
        #expect(try Data(contentsOf: folderPhoto) == Self.photo)
        // Each export reads back whole, its blobs found under their readable names.
        for export in ["p.zip", "p.tar.zst", "p"] {
            let back = directory.path("back-\(export).dkproj")
            let imported = try Run.docctl(["import", directory.path(export), "-o", back])
            #expect(imported.status == 0, "\(export): \(imported.standardError)")
            #expect(try Run.docctl(["cat", back]).output == Run.docctl(["cat", bundle.path]).output)
            #expect(
                try Run.docctl(["extract", back, "tasks[0].attachments[2]", "-o", "-"]).standardOutput == Self.notes)
        }
    }

    @Test func theNameRuleFallsBackToDigests() {
        let a = String(repeating: "a", count: 64)
        let b = String(repeating: "b", count: 64)
        let c = String(repeating: "c", count: 64)
        // A recorded name equal to another blob's digest clashes with that blob's fallback.
        #expect(
            ExportedBlobNames.exportedNames(blobs: [a, b], recorded: [b: [a.uppercased()]]) == [
                a: [a], b: ["bbbbbbbbbbbb-\(a.uppercased())"]
            ])
        // A prefixed name longer than 255 bytes, or one taken by a file that is not a blob.
        let long = String(repeating: "x", count: 250)
        #expect(ExportedBlobNames.exportedNames(blobs: [a, b], recorded: [a: [long], b: [long]]) == [a: [a], b: [b]])
        #expect(
            ExportedBlobNames.exportedNames(blobs: [a, c], recorded: [a: ["x.png"], c: ["y.png"]], others: ["X.PNG"])
                == [a: [a], c: ["y.png"]])
        #expect(ExportedBlobNames.exportedNames(blobs: [a], recorded: [:]) == [a: [a]])
        // Every name of one blob stays, once by the collision key; only a clashing one moves.
        #expect(
            ExportedBlobNames.exportedNames(blobs: [a], recorded: [a: ["t.png", "cover.png", "T.PNG"]]) == [
                a: ["t.png", "cover.png"]
            ])
        #expect(
            ExportedBlobNames.exportedNames(blobs: [a, b], recorded: [a: ["t.png", "cover.png"], b: ["cover.png"]])
                == [a: ["t.png", "aaaaaaaaaaaa-cover.png"], b: ["bbbbbbbbbbbb-cover.png"]])
    }

    /// Issue 23: the same bytes attached under a second name kept only the first in `ls`
    /// and exports, though the document still records both.
    @Test func theSameBytesUnderTwoNamesKeepBothNames() throws {
        let directory = try TemporaryDirectory()
        try Run.succeeding(["new", "p.dkproj", "--name", "P"], in: directory.url)
        try Fixtures.write(Self.photo, to: "thumb.png", in: directory.url)
        try Fixtures.write(Self.photo, to: "cover.png", in: directory.url)
        try Run.succeeding(["attach", "p.dkproj", "thumb.png", "--as", "thumbnail"], in: directory.url)
        try Run.succeeding(
            ["set", "p.dkproj", "tasks[+]", #"{"id": "00000000-0000-4000-8000-000000000001", "title": "Cover"}"#],
            in: directory.url)
        try Run.succeeding(["attach", "p.dkproj", "cover.png", "--as", "tasks[0].attachments[+]"], in: directory.url)
        #expect(try Run.succeeding(["get", "p.dkproj", "thumbnail.name"], in: directory.url).output == "thumb.png\n")
        #expect(
            try Run.succeeding(["ls", "p.dkproj"], in: directory.url).output
                == "blobs/cover.png\nblobs/thumb.png\ndocument.json\n")
        #expect(
            try Run.succeeding(["ls", "p.dkproj", "blobs/thumb.png"], in: directory.url).output == "blobs/thumb.png\n")
        try Run.succeeding(["export", "p.dkproj", "--format", "dir", "-o", "out"], in: directory.url)
        #expect(Fixtures.listing(directory.url.appendingPathComponent("out/blobs")) == ["cover.png", "thumb.png"])
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("out/blobs/thumb.png")) == Self.photo)
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("out/blobs/cover.png")) == Self.photo)
        try Run.succeeding(["export", "p.dkproj", "--format", "bagit", "-o", "bag"], in: directory.url)
        #expect(Fixtures.listing(directory.url.appendingPathComponent("bag/data/blobs")) == ["cover.png", "thumb.png"])
        // Both files read back as the one blob.
        try Run.succeeding(["import", "out", "-o", "back.dkproj"], in: directory.url)
        #expect(
            try Run.succeeding(["cat", "back.dkproj"], in: directory.url).output
                == Run.succeeding(["cat", "p.dkproj"], in: directory.url).output)
        #expect(
            try Run.succeeding(["ls", "back.dkproj"], in: directory.url).output
                == "blobs/cover.png\nblobs/thumb.png\ndocument.json\n")
    }

    @Test func hostileNamesInADocumentAreIgnoredByExports() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.path("g.dkproj")
        try Run.docctl(["new", bundle, "--name", "G"])
        let png = try Fixtures.write(Fixtures.png, to: "t.png", in: directory.url)
        try Run.docctl(["attach", bundle, png.path])
        let digest = ObjectDigest.of(Fixtures.png).hex
        // Written into the stored document as a hand-made tool could: names never checked.
        for (index, hostile) in ["../evil", "a\\u0001b", "..", "sub/evil"].enumerated() {
            let json =
                #"{"name": "G", "createdAt": "2026-01-01T00:00:00Z", "thumbnail": {"$blob": "\#(digest)", "size": \#(Fixtures.png.count), "mediaType": "image/png", "name": "\#(hostile)"}}"#
            let url = URL(fileURLWithPath: bundle)
            let root = FileWrapper(directoryWithFileWrappers: [
                VersionLayout.documentName: FileWrapper(regularFileWithContents: Data(json.utf8)),
                VersionLayout.blobsFolder: FileWrapper(directoryWithFileWrappers: [
                    digest: FileWrapper(regularFileWithContents: Fixtures.png)
                ])
            ])
            let request = BundleWriter.Request(
                root: root, contentType: Project.contentType.identifier, mimeType: Project.contentType.mimeType,
                schema: "4.0.0",
                metadata: SaveMetadata(
                    author: "hand", message: "hostile", created: Date(timeIntervalSince1970: 1_800_000_000)),
                base: try DocumentBundle(contentsOf: url), destination: url, replace: true)
            _ = try BundleWriter.write(request)
            let out = directory.path("out-\(index)")
            let result = try Run.docctl(["export", bundle, "--format", "dir", "-o", out])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(Fixtures.listing(URL(fileURLWithPath: out + "/blobs")) == [digest], "\(hostile)")
            #expect(Fixtures.listing(directory.url).allSatisfy { !$0.contains("evil") })
        }
    }
}
