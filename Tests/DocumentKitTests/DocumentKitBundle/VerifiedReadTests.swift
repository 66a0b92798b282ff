import Foundation
import Testing

@testable import DocumentKit

/// Issue 10, point 4: reads never print what the bundle does not vouch for. `cat`, `get`,
/// `extract` and `export` check what they hand out against the digests of the version they
/// name; a mismatch, a head that is not a version or a document that is not JSON is exit
/// 65 and exactly one `error: FILE: …` line, with nothing on stdout and no output file.
/// The bundles are the hostile corpus's (Tests/HostileCorpus/make_corpus.py).
@Suite struct VerifiedReadTests {
    final class Corpus {
        let directory: TemporaryDirectory
        let corpus: URL
        let out: URL

        init() throws {
            directory = try TemporaryDirectory("VerifiedReadTests")
            corpus = try HostileCorpus.build(["bundles"], in: directory)
            out = directory.url.appendingPathComponent("out")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        }

        func docctl(_ arguments: [String]) throws -> ExternalTool.Result {
            try Run.docctl(arguments, in: corpus)
        }

        func bundle(_ file: String) throws -> DocumentBundle {
            try DocumentBundle(contentsOf: corpus.appendingPathComponent(file))
        }

        /// Runs each command and expects exactly `line` on stderr, exit 65, nothing on
        /// stdout and nothing in `out`.
        func expectRefused(_ commands: [[String]], line: String, sourceLocation: SourceLocation = #_sourceLocation)
            throws
        {
            for command in commands {
                let result = try docctl(command)
                let what = command.joined(separator: " ")
                #expect(
                    result.status == 65, "\(what): exit \(result.status); \(result.standardError)",
                    sourceLocation: sourceLocation)
                #expect(result.standardError == line + "\n", "\(what)", sourceLocation: sourceLocation)
                #expect(
                    result.standardOutput.isEmpty, "\(what): printed \(result.standardOutput.count) bytes",
                    sourceLocation: sourceLocation)
                #expect(
                    Fixtures.listing(out).isEmpty, "\(what): left \(Fixtures.listing(out))",
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// Every command that hands out (part of) the head's document.
    static func documentReaders(_ file: String) -> [[String]] {
        [
            ["cat", file], ["cat", file, "--version", "head"], ["get", file, "name"],
            ["get", file, "name", "--version", "head"],
            ["extract", file, "name", "-o", "-"], ["extract", file, "name", "-o", "../out/name.json"],
            ["export", file, "--format", "json", "-o", "../out/x.json"]
        ]
    }

    /// The line for a `document.json` that is not the head's document: the entry, the
    /// head's number, and both digests, so a reader of the message can tell which is which.
    static func notTheHeadsDocument(_ file: String, in corpus: Corpus) throws -> String {
        let bundle = try corpus.bundle(file)
        let actual = ObjectDigest.of(try bundle.headDocumentData())
        let expected = try #require(try bundle.tree(of: bundle.headVersion)[VersionLayout.documentName]?.knownDigest)
        #expect(actual != expected)
        return
            """
            error: \(file): entry 'document.json': differs from the head version's document (version \
            \(bundle.headVersion.number)): 
            """
                + "its SHA-256 is \(actual.short)…, expected \(expected.short)…"
    }

    /// A document cut short, one nested 100,000 deep, an older version's document, and a
    /// head that is version 1 while document.json is version 2's: each is refused before it
    /// is parsed. The exports of the files take the document from the version's own object,
    /// checked too, and so still give the version as it was saved.
    @Test func aDocumentThatIsNotTheHeadsIsRefusedByEveryReader() throws {
        let corpus = try Corpus()
        for file in [
            "document-truncated.dkproj", "document-nested.dkproj", "document-stale.dkproj", "head-not-latest.dkproj"
        ] {
            try corpus.expectRefused(Self.documentReaders(file), line: try Self.notTheHeadsDocument(file, in: corpus))
            let exported = try corpus.docctl(["export", file, "--format", "zip", "-o", "../out/x.zip"])
            #expect(exported.status == 0, "\(exported.standardError)")
            let bundle = try corpus.bundle(file)
            let recorded = try #require(
                try bundle.tree(of: bundle.headVersion)[VersionLayout.documentName]?.regularFileContents())
            let unzipped = try ExternalTool.unzip.run([
                "-p", corpus.out.appendingPathComponent("x.zip").path, "document.json"
            ])
            let entry = try bundle.headDocumentData()
            #expect(unzipped.standardOutput == recorded && recorded != entry, "\(file)")
            try FileManager.default.removeItem(at: corpus.out.appendingPathComponent("x.zip"))
        }
    }

    @Test func aHeadThatIsNotAVersionIsRefusedByEveryReader() throws {
        let corpus = try Corpus()
        let file = "head-missing.dkproj"
        try corpus.expectRefused(
            Self.documentReaders(file) + [
                ["export", file, "--format", "zip", "-o", "../out/x.zip"],
                ["extract", file, "thumbnail", "-o", "-"]
            ],
            line:
                "error: \(file): manifest.json: manifest.json names head 000000000000, which is not one of its versions"
        )
    }

    /// The blob's bytes differ from its digest (same size, CRC-32 recomputed): refused
    /// before a byte reaches stdout, and no file is left under the output's name. The
    /// document, which does not include the blob's bytes, still reads.
    @Test func aBlobThatIsNotItsDigestIsRefusedBeforeAnythingIsWritten() throws {
        let corpus = try Corpus()
        let file = "object-digest-lies.dkproj"
        let bundle = try corpus.bundle(file)
        let entry = try #require(bundle.zip.entry(named: HostileBundleCases.blobEntry))
        let actual = ObjectDigest.of(try bundle.zip.readData(entry))
        try corpus.expectRefused(
            [
                ["extract", file, "thumbnail", "-o", "-"], ["extract", file, "thumbnail", "-o", "../out/t.png"],
                ["export", file, "--format", "zip", "-o", "../out/x.zip"],
                ["export", file, "--format", "dir", "-o", "../out/x"],
                ["export", file, "--format", "tar.zst", "-o", "../out/x.tar.zst"]
            ],
            line:
                """
                error: \(file): entry '\(HostileBundleCases.blobEntry)': object is damaged: its SHA-256 is \
                \(actual.short)…, expected 43707e4c5f3a…
                """
        )
        #expect(try corpus.docctl(["cat", file]).status == 0)
        #expect(try corpus.docctl(["get", file, "thumbnail.size"]).output == "25\n")
    }

    /// Through the library: a consumer that cannot take back what it was given is never
    /// given a byte of a damaged blob.
    @Test func aCheckedStreamGivesNothingOfADamagedBlob() throws {
        let corpus = try Corpus()
        let url = corpus.corpus.appendingPathComponent("object-digest-lies.dkproj")
        var given = 0
        #expect(throws: DocumentKitError.self) {
            try BundleLookup.extract(try JSONPath(parsing: "thumbnail"), from: url) { given += $0.count }
        }
        #expect(given == 0)
        // The good blob is given whole.
        let good = corpus.corpus.appendingPathComponent("control-built.dkproj")
        var bytes = Data()
        try BundleLookup.extract(try JSONPath(parsing: "thumbnail"), from: good) { bytes.append(contentsOf: $0) }
        #expect(bytes == Data([0x89]) + Data("PNG hostile corpus blob\n".utf8))
    }

    /// Every digest agrees, but the head version's document is not JSON (no DocumentKit
    /// writer saves one; a bundle built by hand can). `cat` and the exports hand out what
    /// the version records; everything that parses it says which file and where.
    @Test func aConsistentDocumentThatIsNotJSONIsRefusedByWhatParsesIt() throws {
        let corpus = try Corpus()
        let file = "head-document-nested.dkproj"
        let line =
            """
            error: \(file): entry 'document.json': not valid JSON: JSON is nested more than 256 levels deep at \
            line 1, column 257
            """
        try corpus.expectRefused(
            [
                ["get", file, "name"], ["extract", file, "name", "-o", "-"],
                ["extract", file, "name", "-o", "../out/name.json"]
            ],
            line: line)
        let printed = try corpus.docctl(["cat", file])
        #expect(
            printed.status == 0
                && printed.standardOutput == Data(repeating: UInt8(ascii: "["), count: 100_000)
                    + Data(repeating: UInt8(ascii: "]"), count: 100_000)
        )
        // Named, the head is read through the whole manifest, with the same message.
        #expect(try corpus.docctl(["get", file, "name", "--version", "1"]).standardError == line + "\n")
    }
}
