import Foundation
import Testing

@testable import DocumentKit

/// `import` reads its source within bounds: a declared size is checked before a buffer is
/// made for it, a file is not read whole to see whether it is JSON, a zip's directory is
/// checked before libarchive reads it, and a source that is not a regular file or a folder
/// is refused unread. Each of these inputs crashed, hung or was imported before.
@Suite struct ImportBoundsTests {
    @Test(arguments: [
        // A tar header declaring 2 GiB, and a sparse tar of 1 TiB of holes: a buffer of the
        // declared size was reserved (and the process died in a 1 GiB address space).
        (
            "import-declared-huge.tar",
            "entry 'document.json': the entry declares 2147483648 bytes; the limit is 1073741824"
        ),
        (
            "import-sparse-bomb.tar",
            "entry 'document.json': the entry declares 1099511627776 bytes; the limit is 1073741824"
        ),
        // libarchive ends names at a NUL, so this was imported as blobs/evil.
        ("import-nul.zip", "entry 'blobs/evil': entry name contains a NUL byte"),
        // libarchive follows the directory, not the count: this was imported.
        ("import-claims-too-many.zip", "the archive has more than 1000000 entries")
    ])
    func archivesAreRefusedWithinBounds(_ file: String, _ message: String) throws {
        let directory = try TemporaryDirectory()
        let corpus = try HostileCorpus.build(["import"], in: directory)
        let result = try BoundedRun().docctl(["import", file, "-o", "x.dkproj"], in: corpus)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError == "error: \(file): \(message)\n")
        if BoundedRun.boundsMemory { #expect(result.maxResidentBytes < 128 << 20) }
        #expect(!Fixtures.listing(corpus).contains { $0.contains("x.dkproj") })
    }

    /// A deflate bomb of 200 MB of zeros in 200 KB is read up to 1,000 times the archive's
    /// size and refused: the document held meanwhile is the run's peak (and shows that the
    /// peak measured is docctl's).
    @Test func aDeflateBombIsHeldToTheExpansionRatio() throws {
        let directory = try TemporaryDirectory()
        let corpus = try HostileCorpus.build(["import"], in: directory)
        let result = try BoundedRun().docctl(["import", "import-bomb.zip", "-o", "x.dkproj"], in: corpus)
        #expect(result.status == 65)
        #expect(
            result.standardError.hasPrefix(
                "error: import-bomb.zip: entry 'document.json': the archive expands to more than 1000 times its size"))
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: corpus.appendingPathComponent("import-bomb.zip").path)[
                .size] as? Int)
        if BoundedRun.boundsMemory {
            #expect(result.maxResidentBytes > size * 1000 / 2, "\(result.maxResidentBytes >> 20) MiB")
        }
        if BoundedRun.boundsMemory {
            #expect(result.maxResidentBytes < size * 1000 + (128 << 20), "\(result.maxResidentBytes >> 20) MiB")
        }
    }

    /// Bundles given to import are sniffed from their first bytes: a 1 GiB sparse one was
    /// read whole (and reserved a buffer of its size) to find out it was not JSON.
    @Test(arguments: [
        "document-huge.dkproj", "entry-over-64-GiB.dkproj", "entries-over-1-TiB.dkproj", "manifest-huge.dkproj"
    ])
    func aLargeSourceIsNotReadToBeRecognised(_ file: String) throws {
        let directory = try TemporaryDirectory()
        let corpus = try HostileCorpus.build(["bundles"], in: directory)
        let result = try BoundedRun().docctl(["import", file, "-o", "x.dkproj"], in: corpus)
        #expect(result.status == 64 || result.status == 65, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("error: \(file): "), "\(result.standardError)")
        if BoundedRun.boundsMemory { #expect(result.maxResidentBytes < 128 << 20) }
        #expect(result.seconds < 10)
    }

    /// A JSON source past the document limit (64 MiB to be parsed) is refused by its size, unread.
    @Test func aJSONSourcePastTheLimitIsRefusedUnread() throws {
        let directory = try TemporaryDirectory()
        let handle = try FileHandle(forWritingTo: try Fixtures.write(Data("{".utf8), to: "big.json", in: directory.url))
        try handle.truncate(atOffset: (1 << 30) + 1)
        try handle.close()
        let result = try BoundedRun().docctl(["import", "big.json", "-o", "x.dkproj"], in: directory.url)
        #expect(result.status == 65)
        #expect(
            result.standardError
                == """
                error: big.json: the document is 1024.0 MiB; documents larger than 64 MiB are not parsed \
                (FORMAT.md, Limits)\n
                """
        )
        if BoundedRun.boundsMemory { #expect(result.maxResidentBytes < 128 << 20) }
    }
}
