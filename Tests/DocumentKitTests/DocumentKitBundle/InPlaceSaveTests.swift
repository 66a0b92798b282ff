import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// Saves append to the bundle in place (the cost of a save is the bytes that changed),
/// stay readable by every zip tool, and are undone cleanly when they fail or are killed.
@Suite struct InPlaceSaveTests {
    /// A bundle whose 4 MB blob makes appending the cheaper way to save.
    private func bundleWithBlob(in directory: TemporaryDirectory) throws -> URL {
        try Fixtures.write(Fixtures.noise(4_000_000), to: "big.bin", in: directory.url)
        try Run.docctl(["new", "p.dkproj", "--name", "v0"], in: directory.url)
        try Run.docctl(["attach", "p.dkproj", "big.bin"], in: directory.url)
        return directory.url.appendingPathComponent("p.dkproj")
    }

    @Test func aSmallEditAppendsAndTouchesNothingButWhatItSuperseded() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        let before = try Data(contentsOf: url)
        try Run.docctl(["set", "p.dkproj", "name", "v1"], in: directory.url)
        let after = try Data(contentsOf: url)
        // Every entry kept is where it was; the superseded ones are renamed into .stale/.
        try SweptAppend.expectSwept(before: before, after: url, in: directory)
        // The document, with room after it for the one after next (FORMAT.md §12.4), the
        // segment, the manifest and the directory.
        #expect(
            after.count > before.count
                && after.count < before.count + 10_000 + Int(StoredZipSlot.room(forEntryOfSize: 0)),
            "grew by \(after.count - before.count)")
        #expect(try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).status == 0)

        let unzip = try ExternalTool(name: "unzip").run(["-p", url.path, "document.json"])
        #expect(unzip.output.contains("\"name\" : \"v1\""))
        #expect(try ExternalTool(name: "unzip").run(["-tq", url.path]).status == 0)
        let bsdtar = try ExternalTool(name: "bsdtar").run(["-xOf", url.path, "document.json"])
        #expect(bsdtar.output == unzip.output)
        let python = try ExternalTool.python(
            """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            names = z.namelist()
            assert len(names) == len(set(names)), names
            print(z.read("document.json").decode(), end="")
            """, [url.path])
        #expect(python.output == unzip.output)
        let info =
            try JSONSerialization.jsonObject(
                with: Data(try Run.docctl(["info", "p.dkproj", "--json"], in: directory.url).output.utf8))
            as! [String: Any]
        #expect((info["reclaimableBytes"] as! Int) > 0)
    }

    @Test func supersededBytesNeverPassAThirdOfTheFile() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        var rewrites = 0
        var previous: (file: Int, reclaimable: Int) = (0, 0)
        for index in 1...20 {
            // A 100 KB task note (text that compresses past 1,000:1, which objects may): each save supersedes a document of that size.
            try Run.docctl(
                [
                    "set", "p.dkproj", "tasks[+]",
                    #"{"title": "t\#(index)", "notes": "\#(String(repeating: "x", count: 100_000))"}"#
                ], in: directory.url)
            let bundle = try DocumentBundle(contentsOf: url)
            let file = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as! Int
            // The free slot, where the next save writes its document, is not waste (§12.4).
            let free = bundle.history?.manifest.freeSlotRange.map { Int($0.count) } ?? 0
            #expect(
                (Int(bundle.reclaimableBytes) - free) * 3 <= file,
                "save \(index): \(bundle.reclaimableBytes) of \(file) superseded, \(free) free")
            if file < previous.file { rewrites += 1 }
            previous = (file, Int(bundle.reclaimableBytes))
        }
        #expect(rewrites > 0, "a save rewrote the bundle without its superseded bytes")
        #expect(try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).status == 0)
    }

    @Test func anUnfinishedAppendIsIgnoredByReadersAndCutOffByTheNextSave() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        let original = try Data(contentsOf: url)
        // What a save killed in the middle leaves: its journal, then part of its entries.
        let fd = open(url.path, O_RDWR)
        defer { close(fd) }
        let journal = try AppendJournal.begin(bundlePath: url.path, fd: fd, length: UInt64(original.count))
        let tail = Data("PK\u{3}\u{4}".utf8) + Fixtures.noise(70_000)
        _ = tail.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(original.count)) }

        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "v0\n")
        let validate = try Run.docctl(["validate", "p.dkproj"], in: directory.url)
        #expect(validate.status == 0)
        #expect(validate.output.contains("bundle.unfinished-save"), "\(validate.output)")
        #expect(FileManager.default.fileExists(atPath: journal.path))
        #expect(try Data(contentsOf: url).count == original.count + tail.count, "readers write nothing")

        try Run.docctl(["set", "p.dkproj", "name", "v1"], in: directory.url)
        let after = try Data(contentsOf: url)
        try SweptAppend.expectSwept(before: original, after: url, in: directory)
        #expect(
            after.count < original.count + 10_000 + Int(StoredZipSlot.room(forEntryOfSize: 0)),
            "the tail was cut before appending")
        #expect(Fixtures.listing(directory.url) == ["big.bin", "p.dkproj"], "the journal is gone")
        #expect(try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).output.contains("ok"))
    }

    @Test func aSaveKilledAfterItsEndRecordButBeforeRemovingTheJournalNeverHappened() throws {
        // The state a kill between the append's last two steps leaves: the file ends in
        // the new, complete zip, and the journal still names the old end. Made here by
        // saving a copy in place and putting its appended bytes back, after the original's
        // (the sweep that follows the removal of the journal never ran), under its journal.
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        let original = try Data(contentsOf: url)
        let copy = directory.url.appendingPathComponent("copy.dkproj")
        try original.write(to: copy)
        try Run.docctl(["set", "copy.dkproj", "name", "killed"], in: directory.url)
        try SweptAppend.expectSwept(before: original, after: copy, in: directory)
        let completed = original + (try Data(contentsOf: copy)).dropFirst(original.count)
        try FileManager.default.removeItem(at: copy)
        let fd = open(url.path, O_RDWR)
        _ = try AppendJournal.begin(bundlePath: url.path, fd: fd, length: UInt64(original.count))
        close(fd)
        try completed.write(to: url)

        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "v0\n", "readers never see it")
        try Run.docctl(["set", "p.dkproj", "summary", "later"], in: directory.url)
        #expect(
            try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "v0\n", "nor does the next writer")
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.manifest.versions.map(\.message) == ["Create v0", "Attach big.bin", "Set summary"])
        #expect(Fixtures.listing(directory.url) == ["big.bin", "p.dkproj"])
    }

    @Test func aStaleJournalNeverCutsAFileItDoesNotDescribe() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        let fd = open(url.path, O_RDWR)
        _ = try AppendJournal.begin(bundlePath: url.path, fd: fd, length: 1_000)
        close(fd)
        let original = try Data(contentsOf: url)
        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "v0\n")
        try Run.docctl(["set", "p.dkproj", "name", "v1"], in: directory.url)
        try SweptAppend.expectSwept(before: original, after: url, in: directory)
        #expect(Fixtures.listing(directory.url) == ["big.bin", "p.dkproj"])
    }

    @Test func aJournalWhoseCutIsNoZipIsIgnoredAndNeverCutsTheFile() throws {
        // A blob holding the bytes of an end record: a journal may then match the file's
        // bytes before its `length` while the cut there is no zip. No append writes such a
        // journal; readers ignore it, and a writer must not cut the file there.
        let directory = try TemporaryDirectory()
        let endRecord: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
        try Fixtures.write(
            Fixtures.noise(2_000_000) + Data(endRecord) + Fixtures.noise(2_000_000, seed: 7), to: "trap.bin",
            in: directory.url)
        try Run.docctl(["new", "p.dkproj", "--name", "v0"], in: directory.url)
        try Run.docctl(["attach", "p.dkproj", "trap.bin"], in: directory.url)
        let url = directory.url.appendingPathComponent("p.dkproj")
        let original = try Data(contentsOf: url)
        let fake = try #require(original.range(of: Data(endRecord)))
        let fd = open(url.path, O_RDWR)
        _ = try AppendJournal.begin(bundlePath: url.path, fd: fd, length: UInt64(fake.upperBound))
        close(fd)
        #expect(AppendJournal.existing(for: url.path) != nil, "the journal matches the file")

        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "v0\n")
        try Run.docctl(["set", "p.dkproj", "name", "v1"], in: directory.url)
        // Nothing before the old end changed but what the save superseded.
        try SweptAppend.expectSwept(before: original, after: url, in: directory)
        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "v1\n")
        #expect(try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).status == 0)
        #expect(Fixtures.listing(directory.url) == ["p.dkproj", "trap.bin"], "the journal is gone")
    }

    @Test func anAppendThatHitsTheFileSizeLimitIsUndone() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        let original = try Data(contentsOf: url)
        try Fixtures.write(Fixtures.noise(3_000_000, seed: 7), to: "more.bin", in: directory.url)
        // `ulimit -f` counts 1024-byte blocks: room for the bundle and 1 MB more.
        let limit = original.count / 1024 + 1024
        let result = try ExternalTool(name: "sh").run(
            ["-c", "ulimit -f \(limit) && exec \"$0\" attach p.dkproj more.bin --as thumbnail", Run.docctlURL.path],
            environment: Run.environment,
            in: directory.url)
        expectFailure(result, status: 74, containing: "p.dkproj")
        #expect(try Data(contentsOf: url) == original, "byte-identical after the failed save")
        #expect(
            Fixtures.listing(directory.url) == ["big.bin", "more.bin", "p.dkproj"], "no journal or temporary file left")
    }

    @Test func readersDuringAppendsAlwaysSeeACompleteVersion() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        // Opened before the saves: it holds the central directory of version 2, whose
        // document.json and manifest the first save supersedes and renames.
        let early = try DocumentBundle(contentsOf: url)
        let earlyDocument = try early.headDocumentData()
        // A writer appends 25 versions while a reader reads the name 60 times meanwhile.
        let writer = Process()
        writer.environment = Run.environment
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = [
            "-c", "for i in $(seq 1 25); do \"$0\" set p.dkproj name \"v$i\" || exit 1; done", Run.docctlURL.path
        ]
        writer.currentDirectoryURL = directory.url
        writer.standardOutput = FileHandle.nullDevice
        try writer.run()
        var seen = Set<String>()
        for _ in 0..<60 {
            let read = try Run.docctl(["get", "p.dkproj", "name"], in: directory.url)
            #expect(read.status == 0, "\(read.standardError)")
            let name = read.output.trimmingCharacters(in: .newlines)
            #expect(
                name == "v0" || (name.hasPrefix("v") && Int(name.dropFirst()).map { 1...25 ~= $0 } == true), "\(name)")
            seen.insert(name)
        }
        writer.waitUntilExit(deadline: "25 docctl set")
        #expect(writer.terminationStatus == 0)
        #expect(seen.count > 1, "the reads overlapped the writes")
        #expect(
            try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).output.hasSuffix(
                "every digest checked)\n"))
        // The early reader still reads its version, its superseded entries renamed under it.
        #expect(try early.headDocumentData() == earlyDocument)
        #expect(try early.read(Project.self).name == "v0")
        let document = try #require(early.zip.entry(named: BundleEntry.document))
        #expect(throws: ArchiveError.self) { try early.zip.verifyLocalHeader(document, allowingStaleName: false) }
    }

    @Test func aReaderOpenedBeforeASaveReadsItsVersionAfterIt() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        let early = try DocumentBundle(contentsOf: url)
        try Run.docctl(["set", "p.dkproj", "name", "v1"], in: directory.url)
        try Run.docctl(["state", "set", "p.dkproj", "view", "board"], in: directory.url)
        // Its document.json and manifest are superseded, and their local headers renamed.
        for name in [BundleEntry.document, BundleEntry.manifest] {
            let entry = try #require(early.zip.entry(named: name))
            #expect(throws: ArchiveError.self, "\(name) is renamed") {
                try early.zip.verifyLocalHeader(entry, allowingStaleName: false)
            }
        }
        #expect(try early.read(Project.self).name == "v0")
        #expect(try early.documentData(of: early.headVersion) == early.headDocumentData())
        let now = try DocumentBundle(contentsOf: url)
        #expect(try now.read(Project.self).name == "v1")
        #expect(try Run.docctl(["state", "get", "p.dkproj", "view"], in: directory.url).output == "board\n")
    }

    @Test func aSaveThatWouldSupersedeANameTooShortToHideRewritesTheBundle() throws {
        // An entry outside the format named `notes` (5 bytes, shorter than `.stale/x`),
        // appended by another tool: a save drops it, and could not rename it.
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        let reader = try StoredZipReader(path: url.path)
        let fd = open(url.path, O_RDWR | O_CLOEXEC)
        let writer = StoredZipWriter(appendingTo: fd, path: url.path, at: reader.length)
        for entry in reader.entries { try writer.keepEntry(entry) }
        try writer.addEntry(name: "notes", data: Data("by hand".utf8))
        try writer.finish()
        close(fd)
        #expect(
            try Run.docctl(["validate", "p.dkproj"], in: directory.url).output.contains(
                "warning entry.unexpected: entry 'notes'"))

        try Run.docctl(["set", "p.dkproj", "name", "v1"], in: directory.url)
        let bundle = try DocumentBundle(contentsOf: url)
        // Rewritten: a document this small gets no room (FORMAT.md §12.4).
        #expect(bundle.reclaimableBytes == 0, "rewritten")
        #expect(bundle.zip.entry(named: "notes") == nil)
        #expect(try bundle.read(Project.self).name == "v1")
        #expect(Fixtures.listing(directory.url) == ["big.bin", "p.dkproj"])
        try Run.docctl(["set", "p.dkproj", "name", "v2"], in: directory.url)
        #expect(try DocumentBundle(contentsOf: url).reclaimableBytes > 0, "and the next save appends")
    }

    @Test func theValidatorRefusesALiveEntryUnderAStaleName() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        try Run.docctl(["set", "p.dkproj", "name", "v1"], in: directory.url)
        let document = try #require(try DocumentBundle(contentsOf: url).zip.entry(named: BundleEntry.document))
        let handle = try FileHandle(forUpdating: url)
        try handle.seek(toOffset: document.localHeaderOffset + 30)
        handle.write(Data(".stale/xxxxxx".utf8))
        try handle.close()

        let validate = try Run.docctl(["validate", "p.dkproj"], in: directory.url)
        #expect(validate.status == 1)
        #expect(
            validate.output.contains(
                """
                error entry.header-mismatch: entry 'document.json': the local header carries a superseded entry's \
                name, '.stale/xxxxxx'
                """
            ), "\(validate.output)")
        // Readers take the central directory's word, as they do for a reader of an older one.
        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "v1\n")
    }

    @Test(.enabled(if: ExternalTool.bsdtar.isAvailable, "needs bsdtar"))
    func aSweepCutShortIsReportedAndFinishedByTheNextSave() throws {
        let directory = try TemporaryDirectory()
        let url = try bundleWithBlob(in: directory)
        let original = try Data(contentsOf: url)
        try Run.docctl(["set", "p.dkproj", "name", "v1"], in: directory.url)
        let swept = try Data(contentsOf: url)
        let copy = try Fixtures.write(original, to: "before.zip", in: directory.url)
        let old = try StoredZipReader(path: copy.path)
        let directoryStart = Int(old.centralDirectoryOffset)

        // Killed after renaming the superseded entries, before covering the old directory:
        // a streaming reader stops at that directory, and fails to find document.json.
        var renamed = swept
        renamed.replaceSubrange(
            directoryStart..<directoryStart + 46, with: original[directoryStart..<directoryStart + 46])
        try renamed.write(to: url)
        let validate = try Run.docctl(["validate", "p.dkproj"], in: directory.url)
        #expect(validate.status == 0)
        #expect(validate.output.components(separatedBy: "bundle.stale-readable").count == 2, "\(validate.output)")
        #expect(
            validate.output.contains(
                """
                warning bundle.stale-readable: superseded bytes at byte \(directoryStart) hold an old central \
                directory
                """
            ), "\(validate.output)")
        let stopped = try StreamingReaders.bsdtar(["-xOf", "-", "document.json"], piping: url)
        #expect(stopped.status != 0 && stopped.standardOutput.isEmpty, "loud: \(stopped.standardError)")

        // Killed before the sweep began: a streaming reader reads the old document.
        try (original + swept.dropFirst(original.count)).write(to: url)
        let unswept = try Run.docctl(["validate", "p.dkproj"], in: directory.url)
        #expect(unswept.status == 0)
        #expect(
            unswept.output.contains(
                """
                warning bundle.stale-readable: superseded bytes at byte \
                \(try #require(old.entry(named: "document.json")).localHeaderOffset) hold a local header named \
                'document.json'
                """
            ), "\(unswept.output)")
        #expect(unswept.output.contains("'docctl pack' writes a copy without superseded bytes"))
        #expect(
            try StreamingReaders.bsdtar(["-xOf", "-", "document.json"], piping: url).output.contains(#""name" : "v0""#))

        // The next save finishes the last one's sweep, and sweeps its own.
        try Run.docctl(["set", "p.dkproj", "name", "v2"], in: directory.url)
        let after = try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url)
        #expect(after.status == 0 && !after.output.contains("warning"), "\(after.output)")
        let head = try DocumentBundle(contentsOf: url).headDocumentData()
        #expect(try StreamingReaders.bsdtar(["-xOf", "-", "document.json"], piping: url).standardOutput == head)
        #expect(
            try Data(contentsOf: url).prefix(original.count) == swept.prefix(original.count),
            "the first sweep, finished")
    }
}
