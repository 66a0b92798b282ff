import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// Issue 25: a save in place writes `document.json` into the slot of the document
/// superseded two saves before (FORMAT.md §12.4, "The document's slot"), so that a bundle
/// whose document outweighs its history no longer rewrites itself, history and blobs
/// included, at every save; while a reader still holding an older central directory keeps
/// its document, a save the system refuses leaves the file byte for byte as it was, and a
/// save killed while writing the slot is undone by the next writer.
@Suite struct DocumentSlotTests {
    private static let metadata = SaveMetadata(
        author: "test", message: "setup", created: Date(timeIntervalSince1970: 1_767_225_600))

    /// A project whose document (about 190 KB) is more than a third of the bundle, beside
    /// a 200 KB blob: before slots, every save superseded a third of the file and rewrote
    /// it whole, blob and history copied. Saved twice in place, so that it has a free slot.
    private func project(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("p.dkproj")
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: GeneratedProject.document(taskCount: 500, seed: 11),
            metadata: Self.metadata)
        let blob = try Fixtures.write(Fixtures.noise(200_000, seed: 12), to: "cover.bin", in: directory.url)
        _ = try BundleEdits.attach(blob, at: JSONPath(parsing: "thumbnail"), in: url, metadata: Self.metadata)
        for name in ["one", "two"] {
            _ = try BundleEdits.set(.string(name), at: JSONPath(parsing: "name"), in: url, metadata: Self.metadata)
        }
        return url
    }

    private func documentOffset(_ url: URL) throws -> UInt64 {
        try #require(try StoredZipReader(path: url.path).entry(named: BundleEntry.document)).localHeaderOffset
    }

    private func inode(_ url: URL) -> ino_t {
        var status = stat()
        stat(url.path, &status)
        return status.st_ino
    }

    @Test func oneFieldSavesWriteTheDocumentOnceAndNeverRewriteTheBundle() throws {
        let directory = try TemporaryDirectory()
        let url = try project(in: directory)
        let inode = inode(url)
        let size = try Data(contentsOf: url).count
        var offsets = Set<UInt64>()
        for index in 1...12 {
            let free = try #require(try DocumentBundle(contentsOf: url).history?.manifest.freeSlotRange)
            let counts = try WorkScalingTests.meteredRun(
                ["set", "p.dkproj", "tasks[\(index)].title", "Renamed \(index)"], in: directory)
            let bundle = try DocumentBundle(contentsOf: url)
            let document = try #require(bundle.zip.entry(named: BundleEntry.document))
            #expect(document.localHeaderOffset == free.lowerBound, "save \(index) wrote into the free slot")
            // The document, the new segment and the manifest: never the blob or the history.
            #expect(
                (counts["stored-bytes"] ?? .max) < Int(document.size) + 64_000,
                "save \(index) stored \(counts["stored-bytes"] ?? -1) for a document of \(document.size)")
            offsets.insert(document.localHeaderOffset)
        }
        #expect(offsets.count == 2, "two slots, in turn: \(offsets.sorted())")
        #expect(self.inode(url) == inode, "never rewritten")
        let grown = try Data(contentsOf: url).count - size
        #expect(grown < 12 * 16_000, "12 saves grew the bundle by \(grown) bytes, no document among them")

        let bundle = try DocumentBundle(contentsOf: url)
        #expect(
            try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).output
                == "p.dkproj: ok (16 versions, \(bundle.manifest.objects.count) objects, every digest checked)\n")
        let head = try bundle.headDocumentData()
        #expect(try ExternalTool.unzip.run(["-p", url.path, "document.json"]).standardOutput == head)
        #expect(try ExternalTool.unzip.run(["-tq", url.path]).status == 0)
        let streamed = try StreamingReaders.bsdtar(["-xOf", "-", "document.json"], piping: url)
        #expect(streamed.status == 0 && streamed.standardOutput == head, "\(streamed.standardError)")
        let walk = try StreamingReaders.walk(url)
        #expect(walk.documentData == [head], "a walker of local headers meets the head's document alone")
        #expect(walk.names.filter { !$0.hasPrefix(".stale/") }.sorted() == bundle.zip.entries.map(\.name).sorted())
        #expect(walk.names.contains(".stale/room"))
    }

    @Test func aReaderOfAnOlderDirectoryKeepsItsDocumentUntilItCloses() throws {
        let directory = try TemporaryDirectory()
        let url = try project(in: directory)
        var early: DocumentBundle? = try DocumentBundle(contentsOf: url)
        let earlyDocument = try early!.headDocumentData()
        // The free slot holds the document before `early`'s: the first save may take it.
        try Run.docctl(["set", "p.dkproj", "name", "three"], in: directory.url)
        // The next free slot is `early`'s document, which it may still read: not taken.
        let free = try #require(try DocumentBundle(contentsOf: url).history?.manifest.freeSlotRange)
        let before = inode(url)
        try Run.docctl(["set", "p.dkproj", "name", "four"], in: directory.url)
        #expect(try documentOffset(url) != free.lowerBound || inode(url) != before, "appended or rewritten")
        #expect(try early!.headDocumentData() == earlyDocument)
        #expect(try early!.read(Project.self).name == "two")
        // Closed, it holds nothing back: once a save supersedes a document again (this one
        // appends: the last, at a third superseded, rewrote the bundle), the next takes its slot.
        early = nil
        try Run.docctl(["set", "p.dkproj", "name", "five"], in: directory.url)
        let next = try #require(try DocumentBundle(contentsOf: url).history?.manifest.freeSlotRange)
        try Run.docctl(["set", "p.dkproj", "name", "six"], in: directory.url)
        #expect(try documentOffset(url) == next.lowerBound)
        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "six\n")
    }

    @Test func aReaderOfTheNewestDirectoryDoesNotHoldTheSlotBack() throws {
        // As a `DocumentController` keeps the bundle it saved: its directory refers to the
        // head's document, never to the free slot.
        let directory = try TemporaryDirectory()
        let url = try project(in: directory)
        let current = try DocumentBundle(contentsOf: url)
        let free = try #require(current.history?.manifest.freeSlotRange)
        try Run.docctl(["set", "p.dkproj", "name", "three"], in: directory.url)
        #expect(try documentOffset(url) == free.lowerBound)
        #expect(try current.read(Project.self).name == "two")
    }

    @Test func aSaveTheSystemRefusesLeavesTheSlotAsItWas() throws {
        let directory = try TemporaryDirectory()
        let url = try project(in: directory)
        let before = try Data(contentsOf: url)
        #expect(try DocumentBundle(contentsOf: url).history?.manifest.freeSlotRange != nil)
        // Room for the bundle and less than a block more: the append fails after its first bytes.
        let result = try ExternalTool(name: "sh").run(
            [
                "-c", "ulimit -f \((before.count + 1023) / 1024) && exec \"$0\" set p.dkproj name refused",
                Run.docctlURL.path
            ], environment: Run.environment, in: directory.url)
        expectFailure(result, status: 74, containing: "p.dkproj")
        #expect(try Data(contentsOf: url) == before, "byte-identical, the slot included")
        #expect(Fixtures.listing(directory.url) == ["cover.bin", "p.dkproj"], "no journal left")
    }

    @Test func aSaveKilledWhileWritingTheSlotIsUndoneByTheNextWriter() throws {
        let directory = try TemporaryDirectory()
        let url = try project(in: directory)
        let original = try Data(contentsOf: url)
        let free = try #require(try DocumentBundle(contentsOf: url).history?.manifest.freeSlotRange)
        // What a save killed before its end record leaves: its journal naming the slot, a
        // document half written there under its live name, and part of its tail.
        let fd = open(url.path, O_RDWR)
        defer { close(fd) }
        let journal = try AppendJournal.begin(
            bundlePath: url.path, fd: fd, length: UInt64(original.count), reusing: free)
        let half =
            StoredZip.localHeader(
                name: Array("document.json".utf8), size: UInt64(free.count) - 43, crc32: 0, zip64Sizes: false,
                versionNeeded: StoredZip.versionNeededStored) + Array(Fixtures.noise(Int(free.count) / 2, seed: 13))
        _ = half.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(free.lowerBound)) }
        let tail = Data("PK\u{3}\u{4}".utf8) + Fixtures.noise(5_000, seed: 14)
        _ = tail.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(original.count)) }

        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "two\n")
        let validate = try Run.docctl(["validate", "p.dkproj"], in: directory.url)
        #expect(validate.status == 0 && validate.output.contains("bundle.unfinished-save"), "\(validate.output)")

        try Run.docctl(["state", "set", "p.dkproj", "view", "board"], in: directory.url)
        #expect(!FileManager.default.fileExists(atPath: journal.path), "the next writer undid it")
        // The slot is one room entry again, its CRC-32 its bytes': the state's append left it free.
        let recovered = try Data(contentsOf: url)
        #expect(recovered[Int(free.lowerBound) + 30..<Int(free.lowerBound) + 41] == Data(".stale/room".utf8))
        #expect(
            try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).output.hasPrefix("p.dkproj: ok ("))
        let walk = try StreamingReaders.walk(url)
        #expect(walk.documentData == [try DocumentBundle(contentsOf: url).headDocumentData()])
        let streamed = try StreamingReaders.bsdtar(["-tf", "-"], piping: url)
        #expect(streamed.status == 0, "\(streamed.standardError)")

        // And the next save writes its document there.
        try Run.docctl(["set", "p.dkproj", "name", "after"], in: directory.url)
        #expect(try documentOffset(url) == free.lowerBound)
        #expect(try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).status == 0)
    }
}
