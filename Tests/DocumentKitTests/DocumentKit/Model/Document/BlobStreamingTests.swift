import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// A blob larger than memory should hold goes in and out in blocks: a 500 MB file is
/// attached and read back by processes that each stay under 64 MiB, and the library's
/// `BlobReference.write(to:)` gives back the same bytes.
@Suite(.serialized) struct BlobStreamingTests {
    static let size: UInt64 = 500 << 20

    /// A file of `size` bytes: a repeating pattern, so that it is not a sparse file of zeros.
    private func makeBigFile(at url: URL) throws -> ObjectDigest {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var block = Data(count: 1 << 20)
        block.withUnsafeMutableBytes { raw in
            for index in 0..<raw.count { raw[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        }
        var hasher = ObjectHasher()
        for number in 0..<Int(Self.size >> 20) {
            block[0] = UInt8(truncatingIfNeeded: number)
            try handle.write(contentsOf: block)
            hasher.update(block)
        }
        return hasher.finalize()
    }

    private func fileDigest(_ url: URL) throws -> ObjectDigest {
        var hasher = ObjectHasher()
        try OpenFile.forReading(url).stream { hasher.update($0) }
        return hasher.finalize()
    }

    @Test func aFiveHundredMegabyteBlobGoesInAndOutUnder64MiB() throws {
        let directory = try TemporaryDirectory()
        let big = directory.url.appendingPathComponent("big.bin")
        let digest = try makeBigFile(at: big)
        try Run.docctl(["new", "p.dkproj", "--name", "Big"], in: directory.url)

        let runner = BoundedRun()
        let attach = try runner.docctl(
            ["attach", "p.dkproj", "big.bin", "--as", "thumbnail", "--media-type", "application/octet-stream"],
            in: directory.url)
        #expect(attach.status == 0, "\(attach.standardError)")
        let extract = try runner.docctl(["extract", "p.dkproj", "thumbnail", "-o", "out.bin"], in: directory.url)
        #expect(extract.status == 0, "\(extract.standardError)")
        if BoundedRun.boundsMemory {
            #expect(attach.maxResidentBytes < 64 << 20, "attach peaked at \(attach.maxResidentBytes >> 20) MiB")
            #expect(extract.maxResidentBytes < 64 << 20, "extract peaked at \(extract.maxResidentBytes >> 20) MiB")
        }
        #expect(try fileDigest(directory.url.appendingPathComponent("out.bin")) == digest)

        // The library's own way out: the same bytes, written in blocks.
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        let thumbnail = try #require(try bundle.read(Project.self).thumbnail)
        #expect(thumbnail.digest == digest && thumbnail.size == Self.size)
        let copy = directory.url.appendingPathComponent("copy.bin")
        #expect(try thumbnail.write(to: copy) == Self.size)
        #expect(try fileDigest(copy) == digest)
        #expect(throws: DocumentKitError.self) { try thumbnail.write(to: copy) }  // exists: refused
        var blocks = 0
        var streamed = ObjectHasher()
        try thumbnail.stream { block in
            #expect(block.count <= 1 << 20)
            streamed.update(block)
            blocks += 1
        }
        #expect(streamed.finalize() == digest && blocks >= 500)
    }
}
