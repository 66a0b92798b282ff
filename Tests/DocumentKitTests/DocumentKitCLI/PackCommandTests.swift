import Foundation
import Testing

@testable import DocumentKit

/// `docctl pack` writes the copy to send: every version, object and the state, without the
/// bytes saves in place leave behind, so that readers walking it from a pipe see the head.
@Suite struct PackCommandTests {
    /// A bundle with a blob large enough that edits append in place, two edits appended,
    /// and state: what leaves superseded bytes behind.
    private func editedBundle(in directory: TemporaryDirectory) throws -> URL {
        try Fixtures.write(Fixtures.noise(2_000_000), to: "big.bin", in: directory.url)
        try Run.docctl(["new", "p.dkproj", "--name", "First"], in: directory.url)
        try Run.docctl(["attach", "p.dkproj", "big.bin", "--as", "thumbnail"], in: directory.url)
        try Run.docctl(["set", "p.dkproj", "name", "Renamed"], in: directory.url)
        try Run.docctl(["state", "set", "p.dkproj", "export.format", "tar"], in: directory.url)
        let url = directory.url.appendingPathComponent("p.dkproj")
        #expect(try DocumentBundle(contentsOf: url).reclaimableBytes > 0, "the edits appended in place")
        return url
    }

    @Test func theCopyHoldsEveryVersionAndNoSupersededBytes() throws {
        let directory = try TemporaryDirectory()
        let url = try editedBundle(in: directory)
        let original = try Data(contentsOf: url)
        let result = try Run.docctl(["pack", "p.dkproj", "-o", "send.dkproj", "--json"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        let report = try JSONDecoder().decode(BundlePacker.Result.self, from: result.standardOutput)
        let source = try DocumentBundle(contentsOf: url)
        let copy = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("send.dkproj"))
        #expect(report.versions == 3 && report.reclaimedBytes == source.reclaimableBytes)
        #expect(copy.reclaimableBytes == 0)
        #expect(try copy.manifest == source.manifest)
        #expect(try copy.headDocumentData() == source.headDocumentData())
        #expect(try Run.docctl(["state", "get", "send.dkproj", "export.format"], in: directory.url).output == "tar\n")
        #expect(try Run.docctl(["validate", "--deep", "send.dkproj"], in: directory.url).status == 0)
        #expect(try Data(contentsOf: url) == original, "the bundle is only read")
        #expect(report.bytes == UInt64(try Data(contentsOf: directory.url.appendingPathComponent("send.dkproj")).count))
    }

    @Test(.enabled(if: ExternalTool.bsdtar.isAvailable && ExternalTool.python3.isAvailable, "needs bsdtar and python3"))
    func readersWalkingThePackFromAPipeSeeTheHead() throws {
        let directory = try TemporaryDirectory()
        let url = try editedBundle(in: directory)
        try Run.docctl(["pack", "p.dkproj", "-o", "send.dkproj"], in: directory.url)
        let head = try DocumentBundle(contentsOf: url).headDocumentData()
        let packed = try Data(contentsOf: directory.url.appendingPathComponent("send.dkproj"))
        // libarchive's streaming zip reader, reading standard input.
        let streamed = try ExternalTool.bsdtar.run(["-xOf", "-", "document.json"], input: packed)
        #expect(streamed.status == 0, "\(streamed.standardError)")
        #expect(streamed.standardOutput == head)
        // A reader of local headers (APPNOTE 4.3.7) over a stream it cannot seek: every entry
        // once, in order, the document the head's.
        let walked = try StreamingReaders.walk(directory.url.appendingPathComponent("send.dkproj"))
        #expect(Set(walked.names).count == walked.names.count, "an entry twice: \(walked.names)")
        #expect(walked.documentData == [head])
    }

    @Test func refusalsNameTheOutputAndChangeNothing() throws {
        let directory = try TemporaryDirectory()
        let url = try editedBundle(in: directory)
        let original = try Data(contentsOf: url)
        try Fixtures.write(Data("keep".utf8), to: "taken.dkproj", in: directory.url)
        let exists = try Run.docctl(["pack", "p.dkproj", "-o", "taken.dkproj"], in: directory.url)
        #expect(exists.status == 73)
        #expect(exists.standardError == "error: taken.dkproj: already exists (use --force to replace it)\n")
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("taken.dkproj")) == Data("keep".utf8))
        let itself = try Run.docctl(["pack", "p.dkproj", "-o", "p.dkproj", "--force"], in: directory.url)
        #expect(itself.status == 64)
        #expect(itself.standardError == "error: p.dkproj: is the bundle itself; pack it to another file\n")
        #expect(try Data(contentsOf: url) == original)
        #expect(Fixtures.listing(directory.url) == ["big.bin", "p.dkproj", "taken.dkproj"])
    }
}
