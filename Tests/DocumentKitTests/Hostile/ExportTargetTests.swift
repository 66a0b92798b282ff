import Foundation
import Testing

@testable import DocumentKit

/// Where an export writes: only the output named, never through a symbolic link planted
/// in or at it, never over an existing output without --force, and nothing at all when
/// it fails.
@Suite struct ExportTargetTests {
    /// A folder with a good bundle, and `outside/` holding `keep`, which nothing may touch.
    final class Setup {
        let directory: TemporaryDirectory
        let outside: URL

        init() throws {
            directory = try TemporaryDirectory("ExportTargetTests")
            try Run.docctl(["new", "p.dkproj", "--name", "P"], in: directory.url)
            try Data("hello, blob\n".utf8).write(to: directory.url.appendingPathComponent("b.png"))
            try Run.docctl(["attach", "p.dkproj", "b.png"], in: directory.url)
            outside = directory.url.appendingPathComponent("outside")
            try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: false)
            try Data("keep\n".utf8).write(to: outside.appendingPathComponent("keep"))
        }

        var url: URL { directory.url }

        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: directory.path(name), withDestinationPath: target)
        }

        func docctl(_ arguments: [String]) throws -> ExternalTool.Result {
            try Run.docctl(arguments, in: directory.url)
        }

        /// `outside` holds `keep`, unchanged, and nothing else.
        func expectOutsideUntouched(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(Fixtures.listing(outside) == ["keep"], sourceLocation: sourceLocation)
            #expect(
                (try? Data(contentsOf: outside.appendingPathComponent("keep"))) == Data("keep\n".utf8),
                sourceLocation: sourceLocation)
        }

        func isLink(_ name: String) -> Bool {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: directory.path(name))) != nil
        }
    }

    @Test func linksInsideAnExistingFolderAreReplacedNotFollowed() throws {
        let setup = try Setup()
        #expect(try setup.docctl(["export", "p.dkproj", "--format", "dir", "-o", "out"]).status == 0)
        let blobs = setup.url.appendingPathComponent("out/blobs")
        let blobNames = Fixtures.listing(blobs)
        try FileManager.default.removeItem(at: blobs)
        try setup.link("out/blobs", to: setup.outside.path)
        try FileManager.default.removeItem(at: setup.url.appendingPathComponent("out/document.json"))
        try setup.link("out/document.json", to: setup.outside.appendingPathComponent("keep").path)

        expectFailure(
            try setup.docctl(["export", "p.dkproj", "--format", "dir", "-o", "out"]), status: 73,
            containing: "out: already exists (use --force to replace it)")
        #expect(setup.isLink("out/blobs") && setup.isLink("out/document.json"))
        setup.expectOutsideUntouched()

        #expect(try setup.docctl(["export", "p.dkproj", "--format", "dir", "-o", "out", "--force"]).status == 0)
        #expect(!setup.isLink("out/blobs") && !setup.isLink("out/document.json"))
        #expect(Fixtures.listing(blobs) == blobNames)
        setup.expectOutsideUntouched()
        #expect(Fixtures.listing(setup.url) == ["b.png", "out", "outside", "p.dkproj"])
    }

    @Test func aFolderTargetThatIsALinkIsReplacedNotFollowed() throws {
        let setup = try Setup()
        try setup.link("out", to: setup.outside.path)
        expectFailure(
            try setup.docctl(["export", "p.dkproj", "--format", "dir", "-o", "out"]), status: 73,
            containing: "already exists")
        setup.expectOutsideUntouched()
        #expect(try setup.docctl(["export", "p.dkproj", "--format", "dir", "-o", "out", "--force"]).status == 0)
        #expect(!setup.isLink("out"))
        #expect(Fixtures.listing(setup.url.appendingPathComponent("out")) == ["blobs", "document.json"])
        setup.expectOutsideUntouched()
    }

    /// A link at a file output, to a file or to nowhere: refused without --force, and
    /// replaced by the export (the link's target untouched) with it. `extract` too.
    @Test(arguments: [
        ["export", "p.dkproj", "--format", "zip", "-o"], ["export", "p.dkproj", "--format", "tar.gz", "-o"],
        ["export", "p.dkproj", "--format", "json", "-o"], ["export", "p.dkproj", "--format", "dir", "-o"],
        ["export", "p.dkproj", "--format", "bagit", "-o"], ["extract", "p.dkproj", "thumbnail", "-o"]
    ])
    func aLinkAtTheOutputIsNeverWrittenThrough(_ command: [String]) throws {
        let setup = try Setup()
        try setup.link("to-file", to: setup.outside.appendingPathComponent("keep").path)
        try setup.link("to-nowhere", to: setup.outside.appendingPathComponent("new").path)
        for name in ["to-file", "to-nowhere"] {
            expectFailure(
                try setup.docctl(command + [name]), status: 73,
                containing: "\(name): already exists (use --force to replace it)")
            #expect(setup.isLink(name))
            setup.expectOutsideUntouched()
            let forced = try setup.docctl(command + [name, "--force"])
            #expect(forced.status == 0, "\(forced.standardError)")
            #expect(!setup.isLink(name))
            setup.expectOutsideUntouched()
        }
    }

    /// A failed export over an existing output leaves that output as it was, and nothing
    /// beside it: the blob of this bundle is damaged, which only the export's last step finds.
    @Test(arguments: ["zip", "dir", "tar", "bagit"])
    func aFailedExportLeavesTheOldOutputAndNoTemporaryFiles(_ format: String) throws {
        let setup = try Setup()
        let output = "out.\(format)"
        #expect(try setup.docctl(["export", "p.dkproj", "--format", format, "-o", output]).status == 0)
        let before = try ExportTargetTests.contents(of: setup.url.appendingPathComponent(output))
        let damage = #"""
            import sys, zipfile
            src = zipfile.ZipFile(sys.argv[1])
            with zipfile.ZipFile(sys.argv[2], "w") as out:
                for info in src.infolist():
                    data = src.read(info).replace(b"hello, blob", b"HELLO, blob")
                    out.writestr(zipfile.ZipInfo(info.filename, (1980, 1, 1, 0, 0, 0)), data)
            """#
        let made = try ExternalTool.python(
            damage, [setup.directory.path("p.dkproj"), setup.directory.path("damaged.dkproj")])
        try #require(made.status == 0, "\(made.standardError)")
        expectFailure(
            try setup.docctl(["export", "damaged.dkproj", "--format", format, "-o", output, "--force"]), status: 65,
            containing: "damaged.dkproj: entry 'objects/39/")
        #expect(try ExportTargetTests.contents(of: setup.url.appendingPathComponent(output)) == before)
        #expect(Fixtures.listing(setup.url) == ["b.png", "damaged.dkproj", output, "outside", "p.dkproj"])
    }

    /// Every file below `url` (or `url` itself) with its bytes.
    static func contents(of url: URL) throws -> [String: Data] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue else {
            return ["": try Data(contentsOf: url)]
        }
        var result: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: url.path)! {
            let file = url.appendingPathComponent(path)
            var folder: ObjCBool = false
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &folder), !folder.boolValue {
                result[path] = try Data(contentsOf: file)
            }
        }
        return result
    }

    /// Files that never end or block on open are refused before they are read.
    @Test func specialFilesAreRefusedUnread() throws {
        let setup = try Setup()
        #expect(mkfifo(setup.directory.path("fifo"), 0o644) == 0)
        for source in ["/dev/zero", "fifo"] {
            expectFailure(
                try setup.docctl(["import", source, "-o", "x.dkproj"]), status: 65,
                containing: "\(source): not a folder, an archive or a JSON file")
            expectFailure(
                try setup.docctl(["info", source]), status: 65,
                containing: "\(source): not a bundle: it is not a regular file")
        }
        #expect(Fixtures.listing(setup.url) == ["b.png", "fifo", "outside", "p.dkproj"])
    }

    @Test func anImportNeverReplacesWithoutForce() throws {
        let setup = try Setup()
        #expect(try setup.docctl(["export", "p.dkproj", "--format", "tar", "-o", "p.tar"]).status == 0)
        let before = try Fixtures.digest(of: setup.url.appendingPathComponent("p.dkproj"))
        expectFailure(
            try setup.docctl(["import", "p.tar", "-o", "p.dkproj"]), status: 73,
            containing: "p.dkproj: already exists (use --force to replace it)")
        #expect(try Fixtures.digest(of: setup.url.appendingPathComponent("p.dkproj")) == before)
        #expect(Fixtures.listing(setup.url) == ["b.png", "outside", "p.dkproj", "p.tar"])
    }
}
