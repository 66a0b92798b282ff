import Foundation
import Testing

@testable import DocumentKit

/// Issue 12, item 4: no reader, streaming or seeking, gets stale data from a bundle saved
/// in place. Each save sweeps what it superseded (FORMAT.md §8, step A5), so a reader that
/// walks local headers from the start, as it gets the bundle from a pipe, meets the head's
/// entries alone under their names; a reader that cannot walk them fails loudly; and every
/// seeking reader finds the bundle as clean as before.
@Suite struct StreamingReaderTests {
    /// The edits the tests make, each appended in place: a 2 MB blob makes appending the
    /// cheaper way to save, and the state change appends `state.json` alone.
    private static let edits: [[String]] = [
        ["set", "p.dkproj", "name", "Renamed"],
        ["set", "p.dkproj", "summary", "Saved in place"],
        ["set", "p.dkproj", "tasks[+]", #"{"title": "Walk the pipe"}"#],
        ["state", "set", "p.dkproj", "export.format", "tar"],
        ["set", "p.dkproj", "name", "Renamed again"]
    ]

    private func newBundle(in directory: TemporaryDirectory) throws -> URL {
        try Fixtures.write(Fixtures.noise(2_000_000), to: "big.bin", in: directory.url)
        try Run.docctl(["new", "p.dkproj", "--name", "First"], in: directory.url)
        try Run.docctl(["attach", "p.dkproj", "big.bin", "--as", "thumbnail"], in: directory.url)
        return directory.url.appendingPathComponent("p.dkproj")
    }

    /// Runs `edit` and checks it appended in place (superseded bytes grew; a rewrite
    /// leaves none) and swept what it superseded.
    private func editInPlace(_ edit: [String], _ url: URL, in directory: TemporaryDirectory) throws {
        let before = try Data(contentsOf: url)
        let reclaimable = try DocumentBundle(contentsOf: url).reclaimableBytes
        let result = try Run.docctl(edit, in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try DocumentBundle(contentsOf: url).reclaimableBytes > reclaimable, "\(edit) saved in place")
        try SweptAppend.expectSwept(before: before, after: url, in: directory)
    }

    private func edited(in directory: TemporaryDirectory) throws -> URL {
        let url = try newBundle(in: directory)
        for edit in Self.edits { try editInPlace(edit, url, in: directory) }
        return url
    }

    @Test(.enabled(if: ExternalTool.bsdtar.isAvailable && ExternalTool.unzip.isAvailable, "needs bsdtar and unzip"))
    func bsdtarReadingAPipeGetsTheHeadAfterEverySaveInPlace() throws {
        let directory = try TemporaryDirectory()
        let url = try newBundle(in: directory)
        for edit in Self.edits {
            try editInPlace(edit, url, in: directory)
            let bundle = try DocumentBundle(contentsOf: url)
            let head = try bundle.headDocumentData()
            #expect(try ExternalTool.unzip.run(["-p", url.path, "document.json"]).standardOutput == head)
            let streamed = try StreamingReaders.bsdtar(["-xOf", "-", "document.json"], piping: url)
            #expect(streamed.status == 0, "\(streamed.standardError)")
            #expect(streamed.standardOutput == head, "after \(edit): \(streamed.output.prefix(200))")

            let listed = try StreamingReaders.bsdtar(["-tf", "-"], piping: url)
            #expect(listed.status == 0, "\(listed.standardError)")
            let names = listed.output.split(separator: "\n").map(String.init)
            let live = names.filter { !$0.hasPrefix(".stale/") }
            #expect(live.filter { $0 == "document.json" }.count == 1, "\(names)")
            #expect(live.filter { $0 == "manifest.json" }.count == 1, "\(names)")
            #expect(live.sorted() == bundle.zip.entries.map(\.name).sorted(), "every live entry once")
            #expect(names.contains(".stale/directory"))
        }
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable, "needs python3"))
    func aWalkerOfLocalHeadersFindsTheHeadsDocumentOnce() throws {
        let directory = try TemporaryDirectory()
        let url = try edited(in: directory)
        let bundle = try DocumentBundle(contentsOf: url)
        let walk = try StreamingReaders.walk(url)
        #expect(walk.documentData == [try bundle.headDocumentData()])
        #expect(walk.names.filter { !$0.hasPrefix(".stale/") }.sorted() == bundle.zip.entries.map(\.name).sorted())
        // One per save in place (the attach rewrote a bundle this small).
        #expect(walk.names.filter { $0 == ".stale/directory" }.count == Self.edits.count)
        #expect(walk.stoppedAt == bundle.zip.centralDirectoryOffset, "it stops at the live central directory")
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable, "needs python3"))
    func pythonsZipfileOverAStreamItCannotSeekFailsLoudly() throws {
        // zipfile reads the central directory, which it finds by seeking to the end: over a
        // stream that cannot seek it raises before reading a byte, whatever the bundle holds.
        let directory = try TemporaryDirectory()
        let url = try edited(in: directory)
        let script = """
            import sys, zipfile
            class NonSeekable:
                def __init__(self, raw):
                    self.raw = raw
                def read(self, size=-1):
                    return self.raw.read(size)
                def seekable(self):
                    return False
            archive = zipfile.ZipFile(NonSeekable(sys.stdin.buffer))
            sys.stdout.buffer.write(archive.read("document.json"))
            """
        let result = try StreamingReaders.python(script, piping: url)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(
            result.standardError.contains("AttributeError: 'NonSeekable' object has no attribute 'seek'"),
            "\(result.standardError)")
    }

    @Test(
        .enabled(
            if: ExternalTool.unzip.isAvailable && ExternalTool.bsdtar.isAvailable && ExternalTool.python3.isAvailable,
            "needs unzip, bsdtar and python3"))
    func seekingReadersFindTheSweptBundleClean() throws {
        let directory = try TemporaryDirectory()
        let url = try edited(in: directory)
        let bundle = try DocumentBundle(contentsOf: url)
        let names = bundle.zip.entries.map(\.name)
        let unzip = try ExternalTool.unzip.run(["-t", url.path])
        #expect(unzip.status == 0 && unzip.output.contains("No errors detected"), "\(unzip.output)")
        let listed = try ExternalTool.bsdtar.run(["-tf", url.path])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.output.split(separator: "\n").map(String.init).sorted() == names.sorted())
        let python = try ExternalTool.python(
            """
            import json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print(json.dumps(z.namelist()))
            """, [url.path])
        #expect(python.status == 0, "\(python.standardError)")
        #expect(try JSONDecoder().decode([String].self, from: python.standardOutput) == names)
        let validate = try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url)
        #expect(validate.status == 0)
        #expect(
            try validate.output
                == """
                p.dkproj: ok (\(bundle.manifest.versions.count) versions, \(bundle.manifest.objects.count) \
                objects, every digest checked)\n
                """
        )
    }

    @Test func aPackedCopyHasNothingToSweep() throws {
        let directory = try TemporaryDirectory()
        _ = try edited(in: directory)
        try Run.docctl(["pack", "p.dkproj", "-o", "send.dkproj"], in: directory.url)
        let packed = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("send.dkproj"))
        #expect(packed.reclaimableBytes == 0)
        #expect(try packed.zip.staleRecords() == [])
        #expect(
            try StoredZipSweep.unfinishedRegion(
                before: packed.zip, in: packed.zip.fileDescriptor, path: packed.zip.path) == nil)
    }
}
