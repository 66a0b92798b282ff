import Foundation
import Testing

@testable import DocumentKit

@Suite struct ExportImportTests {
    /// A bundle with two tasks and a thumbnail, in `directory`.
    private func makeBundle(in directory: URL) throws {
        try Fixtures.write(Fixtures.png, to: "thumb.png", in: directory)
        try Run.docctl(["new", "p.dkproj", "--name", "Übersicht"], in: directory)
        try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "日本語のタスク"}"#], in: directory)
        try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "second", "priority": "high"}"#], in: directory)
        try Run.docctl(["attach", "p.dkproj", "thumb.png"], in: directory)
    }

    @Test(arguments: ["zip", "tar", "tar.gz", "tar.zst", "dir"])
    func exportThenImportRoundTrips(format: String) throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        let export = try Run.docctl(
            ["export", "p.dkproj", "--format", format, "-o", "out.\(format)"], in: directory.url)
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.output.hasPrefix("exported version 4 of p.dkproj to out.\(format) (\(format), 2 files, "))
        let imported = try Run.docctl(["import", "out.\(format)", "-o", "back.dkproj"], in: directory.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let original = try Run.docctl(["cat", "p.dkproj"], in: directory.url).output
        #expect(try Run.docctl(["cat", "back.dkproj"], in: directory.url).output == original)
        let thumbnail = try Run.docctl(["extract", "back.dkproj", "thumbnail", "-o", "-"], in: directory.url)
        #expect(thumbnail.standardOutput == Fixtures.png)
    }

    @Test func exportedArchivesAreReadByOrdinaryTools() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        try Run.docctl(["export", "p.dkproj", "--format", "zip", "-o", "p.zip"], in: directory.url)
        try Run.docctl(["export", "p.dkproj", "--format", "tar.zst", "-o", "p.tar.zst"], in: directory.url)
        // The ordinary tools are the point: the test needs them (.ci/run installs them).
        // Blobs are named as they were attached (FORMAT.md §7, "Exports").
        try #require(ExternalTool.unzip.isAvailable, "unzip is installed")
        try #require(ExternalTool.bsdtar.isAvailable, "bsdtar is installed")
        let zipList = try ExternalTool.unzip.run(["-Z1", directory.path("p.zip")])
        #expect(zipList.output == "blobs/\nblobs/thumb.png\ndocument.json\n")
        let tarList = try ExternalTool.bsdtar.run(["-tf", directory.path("p.tar.zst")])
        #expect(tarList.output == "blobs/\nblobs/thumb.png\ndocument.json\n")
    }

    @Test func exportNeverOverwritesWithoutForceAndJSONIsTheDocument() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        try Fixtures.write(Data("keep me".utf8), to: "taken.json", in: directory.url)
        expectFailure(
            try Run.docctl(["export", "p.dkproj", "--format", "json", "-o", "taken.json"], in: directory.url),
            status: 73, containing: "taken.json: already exists (use --force to replace it)")
        #expect(
            try String(contentsOf: directory.url.appendingPathComponent("taken.json"), encoding: .utf8) == "keep me")
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("folder"), withIntermediateDirectories: false)
        expectFailure(
            try Run.docctl(["export", "p.dkproj", "--format", "dir", "-o", "folder"], in: directory.url),
            status: 73, containing: "already exists")
        #expect(
            try Run.docctl(["export", "p.dkproj", "--format", "json", "-o", "taken.json", "--force"], in: directory.url)
                .status == 0)
        #expect(
            try Data(contentsOf: directory.url.appendingPathComponent("taken.json"))
                == Run.docctl(["cat", "p.dkproj"], in: directory.url).standardOutput)
        #expect(
            try Run.docctl(["export", "p.dkproj", "--format", "dir", "-o", "folder", "--force"], in: directory.url)
                .status == 0)
        #expect(Fixtures.listing(directory.url.appendingPathComponent("folder")) == ["blobs", "document.json"])
        #expect(
            Fixtures.listing(directory.url) == ["folder", "p.dkproj", "taken.json", "thumb.png"],
            "no staging folder left")
    }

    @Test func importReadsArchivesMadeByOtherTools() throws {
        let directory = try TemporaryDirectory()
        let project = directory.url.appendingPathComponent("myproject")
        try FileManager.default.createDirectory(
            at: project.appendingPathComponent("blobs"), withIntermediateDirectories: true)
        let digest = ObjectDigest.of(Fixtures.png).hex
        try Fixtures.png.write(to: project.appendingPathComponent("blobs/\(digest)"))
        try Data(
            #"{"name": "From tar", "thumbnail": {"$blob": "\#(digest)", "size": 67, "mediaType": "image/png"}}"#.utf8
        )
        .write(to: project.appendingPathComponent("document.json"))
        try #require(ExternalTool.bsdtar.isAvailable, "bsdtar is installed")
        try ExternalTool.bsdtar.run(["-czf", directory.path("p.tgz"), "-C", directory.url.path, "myproject"])
        let result = try Run.docctl(["import", "p.tgz", "-o", "p.dkproj"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "From tar\n")
        #expect(try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).status == 0)
        let fromJSON = try Run.docctl(["import", "myproject/document.json", "-o", "j.dkproj"], in: directory.url)
        expectFailure(fromJSON, status: 65, containing: "thumbnail")
    }
}
