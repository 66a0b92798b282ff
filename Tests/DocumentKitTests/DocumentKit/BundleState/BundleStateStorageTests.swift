import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI
@testable import SampleProject

/// State an application keeps in a bundle's `state.json`, outside its history: typed
/// containers over it, no versions, and every writer carrying it over unchanged.
@Suite struct BundleStateStorageTests {
    private let taskID = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!

    /// A bundle of two versions whose 4 MB thumbnail makes appending the cheaper way to
    /// write: a state change is then an append.
    private func bigBundle(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("p.dkproj")
        var project = Fixtures.project()
        project.thumbnail = BlobReference(data: Fixtures.noise(4_000_000), mediaType: "image/png")
        let controller = DocumentController(newDocument: project, at: url)
        try controller.save(message: "one", author: "ada", created: Date(timeIntervalSince1970: 1_767_225_600))
        controller.document.name = "Two"
        try controller.save(message: "two", author: "ada", created: Date(timeIntervalSince1970: 1_767_225_660))
        return url
    }

    /// A one-version bundle of a few kilobytes: writes to it rewrite it more often than not.
    private func smallBundle(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("small.dkproj")
        try DocumentController(newDocument: Fixtures.project(), at: url).save(message: "one", author: "ada")
        return url
    }

    private func entryNames(_ url: URL) throws -> [String] {
        try DocumentBundle(contentsOf: url).zip.entries.map(\.name)
    }

    private func inode(_ url: URL) -> ino_t {
        var info = stat()
        stat(url.path, &info)
        return info.st_ino
    }

    @Test func typedContainersSetGetAndRemove() throws {
        let directory = try TemporaryDirectory()
        let url = try smallBundle(in: directory)
        let state = BundleState(bundle: url)
        #expect(try state.lastOpenedTask.get() == nil)
        #expect(try state.storage.keys().isEmpty, "a bundle without state.json has empty state")
        #expect(try !entryNames(url).contains(BundleEntry.state))

        try state.lastOpenedTask.set(taskID)
        try state.exportFormat.set(.tarZstd)
        #expect(state.lastOpenedTask.key == "lastOpenedTask" && state.exportFormat.key == "exportFormat")
        #expect(try state.lastOpenedTask.get() == taskID)
        #expect(try state.exportFormat.get() == .tarZstd)
        #expect(try state.storage.keys() == ["exportFormat", "lastOpenedTask"])
        #expect(try entryNames(url).last == BundleEntry.state, "the last entry, after the manifest")
        #expect(
            try DocumentBundle(contentsOf: url).storedState() == [
                "exportFormat": .string("tar.zst"), "lastOpenedTask": .string("6F9619FF-8B86-D011-B42D-00C04FC964FF")
            ])

        // The controller and the opened bundle reach the same state.
        let controller = try DocumentController<Project>(contentsOf: url)
        #expect(try controller.state.lastOpenedTask.get() == taskID)
        #expect(try DocumentBundle(contentsOf: url).state.exportFormat.get() == .tarZstd)

        try state.lastOpenedTask.remove()
        try state.lastOpenedTask.remove()  // removing twice is fine
        #expect(try state.lastOpenedTask.get() == nil)
        try controller.state.exportFormat.remove()
        #expect(try !entryNames(url).contains(BundleEntry.state), "an empty state is no entry at all")
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
    }

    @Test func keysCarryTheStoragesPrefix() throws {
        let directory = try TemporaryDirectory()
        let url = try smallBundle(in: directory)
        let app = BundleStateStorage(url: url, keyPrefix: "com.example.")
        try app.setValue(1.5, forKey: "zoom")
        try BundleState(bundle: url).lastOpenedTask.set(taskID)
        #expect(try app.keys() == ["zoom"])
        #expect(try app.value(Double.self, forKey: "zoom") == 1.5)
        #expect(try BundleStateStorage(url: url).keys() == ["com.example.zoom", "lastOpenedTask"])
        // Several keys in one write.
        try app.update { values in
            values["com.example.zoom"] = nil
            values["com.example.ruler"] = .bool(true)
        }
        #expect(try BundleStateStorage(url: url).keys() == ["com.example.ruler", "lastOpenedTask"])
    }

    @Test func aStateChangeMakesNoVersionAndOnlyAppends() throws {
        let directory = try TemporaryDirectory()
        let url = try bigBundle(in: directory)
        let before = try Data(contentsOf: url)
        let opened = try DocumentBundle(contentsOf: url)
        let manifest = try opened.zip.readData(opened.zip.entry(named: BundleEntry.manifest)!)
        let document = try opened.headDocumentData()
        let inodeBefore = inode(url)

        try BundleState(bundle: url).lastOpenedTask.set(taskID)

        let after = try Data(contentsOf: url)
        // Every byte before the append is untouched, but the old directory, now covered.
        try SweptAppend.expectSwept(before: before, after: url, in: directory)
        #expect(
            after.count > before.count && after.count < before.count + 2_000, "grew by \(after.count - before.count)")
        #expect(inode(url) == inodeBefore, "appended in place, not rewritten")
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.manifest == opened.manifest, "no version, the same head")
        #expect(try bundle.zip.readData(bundle.zip.entry(named: BundleEntry.manifest)!) == manifest)
        #expect(try bundle.headDocumentData() == document)
        for name in [BundleEntry.mimetype, BundleEntry.document, BundleEntry.manifest] {
            #expect(
                bundle.zip.entry(named: name)?.localHeaderOffset == opened.zip.entry(named: name)?.localHeaderOffset,
                "\(name) stays where it was")
        }
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"], "no journal or temporary file is left")
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)

        // Setting the same value again writes nothing.
        try BundleState(bundle: url).lastOpenedTask.set(taskID)
        #expect(try Data(contentsOf: url) == after)
    }

    @Test func manyStateChangesNeverLeaveMoreThanAThirdOfTheFileSuperseded() throws {
        let directory = try TemporaryDirectory()
        let url = try smallBundle(in: directory)
        let document = try DocumentBundle(contentsOf: url).headDocumentData()
        var rewrites = 0
        for index in 1...30 {
            let inodeBefore = inode(url)
            try BundleStateStorage(url: url).setValue(String(repeating: "x", count: 50 * index), forKey: "note")
            if inode(url) != inodeBefore { rewrites += 1 }
            let bundle = try DocumentBundle(contentsOf: url)
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
            #expect(
                Int(bundle.reclaimableBytes) * 3 <= size,
                "write \(index): \(bundle.reclaimableBytes) of \(size) superseded")
            #expect(try bundle.headDocumentData() == document && bundle.manifest.versions.count == 1)
        }
        #expect(rewrites > 0 && rewrites < 30, "\(rewrites) rewrites: some writes appended, some rewrote")
        #expect(try BundleStateStorage(url: url).value(String.self, forKey: "note")?.count == 1_500)
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
    }

    @Test func theStateSurvivesASaveInPlacePruneAndRestore() throws {
        let directory = try TemporaryDirectory()
        let url = try bigBundle(in: directory)
        let state = BundleState(bundle: url)
        try state.lastOpenedTask.set(taskID)
        try state.exportFormat.set(.zip)
        let stored = try DocumentBundle(contentsOf: url).storedState()
        func expectStateKept(_ comment: Comment) throws {
            #expect(try DocumentBundle(contentsOf: url).storedState() == stored, comment)
            #expect(try entryNames(url).last == BundleEntry.state, comment)
        }

        // A save that appends (a 4 MB bundle, a small change) keeps the state where it is.
        let controller = try DocumentController<Project>(contentsOf: url)
        controller.document.name = "Three"
        let inodeBefore = inode(url)
        let stateOffset = try DocumentBundle(contentsOf: url).zip.entry(named: BundleEntry.state)?.localHeaderOffset
        try controller.save(message: "three", author: "ada")
        #expect(inode(url) == inodeBefore, "saved in place")
        #expect(
            try DocumentBundle(contentsOf: url).zip.entry(named: BundleEntry.state)?.localHeaderOffset == stateOffset,
            "kept where it was, not written again")
        try expectStateKept("save in place")

        _ = try BundlePruner.prune(url, keep: 2)
        #expect(inode(url) != inodeBefore, "prune rewrites the bundle")
        try expectStateKept("prune")

        _ = try BundleEdits.restore("2", in: url, metadata: SaveMetadata(author: "ada", message: "back"))
        try expectStateKept("restore")
        #expect(try DocumentBundle(contentsOf: url).manifest.versions.map(\.number) == [2, 3, 4])
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
    }

    @Test func aRewritingSaveCarriesTheState() throws {
        let directory = try TemporaryDirectory()
        let url = try smallBundle(in: directory)
        try BundleState(bundle: url).lastOpenedTask.set(taskID)
        let controller = try DocumentController<Project>(contentsOf: url)
        controller.document.summary = String(repeating: "A summary that supersedes the small document. ", count: 100)
        let inodeBefore = inode(url)
        try controller.save(message: "two", author: "ada")
        #expect(inode(url) != inodeBefore, "the save rewrote the bundle")
        #expect(try controller.state.lastOpenedTask.get() == taskID)
        #expect(try entryNames(url).last == BundleEntry.state)
    }

    @Test func theStateSurvivesAMigration() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v1.dkproj", to: directory)
        try BundleState(bundle: url).exportFormat.set(.dir)
        let report = try BundleMigrator.migrate(url, author: "ada")
        #expect(report.saved)
        #expect(try BundleState(bundle: url).exportFormat.get() == .dir)
        #expect(try BundleValidator.validate(url, deep: true).valid)
    }

    @Test func stateBeyondTheLimitIsRefusedAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let url = try smallBundle(in: directory)
        let storage = BundleStateStorage(url: url)
        try storage.setValue("small", forKey: "a")
        let before = try Data(contentsOf: url)
        #expect {
            try storage.setValue(String(repeating: "x", count: 1 << 20), forKey: "b")
        } throws: { error in
            let error = error as? DocumentKitError
            return error?.code == .invalidDocument && error?.path == url.relativePath
                && error?.message.hasPrefix("the bundle state would be 1048") == true
                && error?.message.hasSuffix("more than the limit of 1048576; nothing was written") == true
        }
        #expect(try Data(contentsOf: url) == before)
        // Just under the limit is fine.
        try storage.setValue(String(repeating: "x", count: (1 << 20) - 100), forKey: "b")
        #expect(try BundleValidator.validate(url).findings.isEmpty)
    }

    @Test func aValueOfTheWrongTypeNamesBundleAndKey() throws {
        let directory = try TemporaryDirectory()
        let url = try smallBundle(in: directory)
        try BundleStateStorage(url: url).setValue("tomorrow", forKey: "lastOpenedTask")
        #expect {
            try BundleState(bundle: url).lastOpenedTask.get()
        } throws: { error in
            (error as? DocumentKitError)?.description
                == #"\#(url.relativePath): key 'lastOpenedTask': expected a UUID, found "tomorrow" (a string)"#
        }
    }

    @Test func readersIgnoreAnUnfinishedStateWriteAndTheNextWriterCutsItOff() throws {
        let directory = try TemporaryDirectory()
        let url = try bigBundle(in: directory)
        try BundleState(bundle: url).exportFormat.set(.tar)
        let original = try Data(contentsOf: url)
        // What a state write killed halfway leaves: its journal, then part of its entry.
        let fd = open(url.path, O_RDWR)
        defer { close(fd) }
        let journal = try AppendJournal.begin(bundlePath: url.path, fd: fd, length: UInt64(original.count))
        let tail = Data("PK\u{3}\u{4}".utf8) + Fixtures.noise(500)
        _ = tail.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(original.count)) }

        #expect(try BundleState(bundle: url).exportFormat.get() == .tar, "readers read the zip before the tail")
        try BundleState(bundle: url).exportFormat.set(.zip)
        #expect(!FileManager.default.fileExists(atPath: journal.path))
        // The tail was cut, then the state appended and what it superseded swept.
        try SweptAppend.expectSwept(before: original, after: url, in: directory)
        #expect(try BundleState(bundle: url).exportFormat.get() == .zip)
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
    }

    @Test func zipToolsReadABundleWithState() throws {
        let directory = try TemporaryDirectory()
        let url = try bigBundle(in: directory)
        try BundleState(bundle: url).lastOpenedTask.set(taskID)
        try BundleStateStorage(url: url).setValue(["b": 2, "a": 1], forKey: "com.example.counts")
        let expected = """
            {
              "com.example.counts" : {
                "a" : 1,
                "b" : 2
              },
              "lastOpenedTask" : "6F9619FF-8B86-D011-B42D-00C04FC964FF"
            }

            """
        let unzip = try ExternalTool.unzip.run(["-p", url.path, "state.json"])
        #expect(
            unzip.status == 0 && unzip.output == expected,
            "canonical JSON: keys sorted, two-space indents, a final newline")
        #expect(try ExternalTool.unzip.run(["-tq", url.path]).status == 0)
        let listing = try ExternalTool.bsdtar.run(["-tf", url.path])
        #expect(listing.output.split(separator: "\n").last == "state.json")
        #expect(try ExternalTool.bsdtar.run(["-xOf", url.path, "state.json"]).output == expected)
        let python = try ExternalTool.python(
            """
            import json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            names = z.namelist()
            assert names[-2:] == ["manifest.json", "state.json"], names
            assert len(names) == len(set(names)), names
            manifest = json.loads(z.read("manifest.json"))
            assert "state.json" not in json.dumps(manifest)
            print(json.loads(z.read("state.json"))["lastOpenedTask"])
            """, [url.path])
        #expect(python.status == 0, "\(python.standardError)")
        #expect(python.output == "6F9619FF-8B86-D011-B42D-00C04FC964FF\n")
    }
}
