import Foundation
import Testing
@testable import DocumentKit

/// Broken and hostile files, built here from a valid bundle by a second zip
/// implementation (Python's zipfile): each gets one error line and its exit status, and
/// nothing is written or changed.
@Suite struct HostileInputTests {
    /// Writes the corpus into `directory` from `good`, a valid bundle.
    static let corpusScript = #"""
        import io, json, os, sys, zipfile, zlib
        good, out = sys.argv[1], sys.argv[2]
        src = zipfile.ZipFile(good)
        entries = [(i.filename, src.read(i.filename)) for i in src.infolist()]
        manifest = json.loads(dict(entries)["manifest.json"])

        def write(name, items, method=zipfile.ZIP_STORED, mutate=None):
            path = os.path.join(out, name)
            with zipfile.ZipFile(path, "w") as z:
                for n, d in items:
                    z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d, compress_type=method)
            if mutate:
                data = bytearray(open(path, "rb").read())
                mutate(data)
                open(path, "wb").write(bytes(data))

        def replaced(name, data):
            return [(n, data if n == name else d) for n, d in entries]

        blob = open(good, "rb").read()
        open(os.path.join(out, "not-an-archive.dkproj"), "wb").write(b"hello, I am not a zip\n" * 10)
        open(os.path.join(out, "empty.dkproj"), "wb").write(b"")
        open(os.path.join(out, "truncated.dkproj"), "wb").write(blob[: len(blob) // 2])
        open(os.path.join(out, "truncated-tail.dkproj"), "wb").write(blob[:-10])
        def flip_document(data):
            at = bytes(data).index(b'"name"') + 3
            data[at] ^= 0x20
        write("bad-crc.dkproj", entries, mutate=flip_document)
        write("no-manifest.dkproj", [(n, d) for n, d in entries if n != "manifest.json"])
        write("mimetype-not-first.dkproj", entries[1:] + entries[:1])
        write("dot-dot.dkproj", entries + [("../evil.txt", b"x")])
        write("absolute.dkproj", entries + [("/etc/evil.txt", b"x")])
        write("backslash.dkproj", entries + [("objects\\evil", b"x")])
        write("duplicate.dkproj", entries + [("document.json", b"{}")])
        write("case-duplicate.dkproj", entries + [("Document.json", b"{}")])
        link = zipfile.ZipInfo("objects/link", (1980, 1, 1, 0, 0, 0))
        link.external_attr = (0o120777 << 16)
        path = os.path.join(out, "symlink.dkproj")
        with zipfile.ZipFile(path, "w") as z:
            for n, d in entries:
                z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d)
            z.writestr(link, "/etc/passwd")
        write("deflated.dkproj", entries, method=zipfile.ZIP_DEFLATED)
        newer = dict(manifest, formatVersion=99)
        write("newer-format.dkproj", replaced("manifest.json", json.dumps(newer).encode()))
        write("manifest-not-json.dkproj", replaced("manifest.json", b"{not json"))
        write("manifest-nested.dkproj", replaced("manifest.json", b"{\"a\": " + b"[" * 100000 + b"]" * 100000 + b"}"))
        write("document-nested.dkproj", replaced("document.json", b"[" * 100000 + b"]" * 100000))
        lying = dict(manifest, head="0" * 64)
        write("head-missing.dkproj", replaced("manifest.json", json.dumps(lying).encode()))
        # A zip bomb for import: 200 MB of zeros deflated to ~200 KB.
        with zipfile.ZipFile(os.path.join(out, "bomb.zip"), "w", zipfile.ZIP_DEFLATED) as z:
            with z.open("document.json", "w") as f:
                chunk = b"\0" * (1 << 20)
                for _ in range(200):
                    f.write(chunk)
        """#

    /// (file, exit status of info/cat/export, a fragment of the message).
    static let cases: [(String, Int32, String)] = [
        ("not-an-archive.dkproj", 65, "not a DocumentKit bundle"),
        ("empty.dkproj", 65, "not a DocumentKit bundle"),
        ("truncated.dkproj", 65, "truncated.dkproj: "),
        ("truncated-tail.dkproj", 65, "truncated-tail.dkproj: "),
        ("no-manifest.dkproj", 65, "it has no manifest.json"),
        ("mimetype-not-first.dkproj", 65, "the first entry is 'document.json', expected 'mimetype'"),
        ("dot-dot.dkproj", 65, "../evil.txt"),
        ("absolute.dkproj", 65, "/etc/evil.txt"),
        ("backslash.dkproj", 65, #"objects\evil"#),
        ("duplicate.dkproj", 65, "document.json"),
        ("case-duplicate.dkproj", 65, "Document.json"),
        ("symlink.dkproj", 65, "objects/link"),
        ("deflated.dkproj", 65, "must be stored"),
        ("newer-format.dkproj", 65, "bundle format version 99 is newer than this DocumentKit supports (1)"),
        ("manifest-not-json.dkproj", 65, "manifest.json"),
        ("manifest-nested.dkproj", 65, "nested more than 256 levels"),
        ("head-missing.dkproj", 65, "names head 000000000000, which is not one of its versions"),
    ]

    @Test func everyHostileFileGetsOneLineItsStatusAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "good.dkproj", "--name", "Good"], in: directory.url)
        try Run.docctl(["set", "good.dkproj", "tasks[+]", #"{"title": "t"}"#], in: directory.url)
        let corpus = directory.url.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: false)
        let made = try ExternalTool.python(Self.corpusScript, [directory.path("good.dkproj"), corpus.path])
        try #require(made.status == 0, "\(made.standardError)")
        let digests = try Dictionary(uniqueKeysWithValues: Fixtures.listing(corpus).map { ($0, try Fixtures.digest(of: corpus.appendingPathComponent($0))) })

        for (file, status, fragment) in Self.cases {
            // cat and get read the head document trusting the manifest's header (format,
            // head) without decoding its version list: a lying list is for validate to find.
            let readsHeadOnly = file == "head-missing.dkproj"
            let commands = [["info", file], ["export", file, "--format", "dir", "-o", "out"]]
                + (readsHeadOnly ? [] : [["cat", file], ["get", file, "name"]])
            for command in commands {
                let result = try Run.docctl(command, in: corpus)
                #expect(result.status == status, "\(command): \(result.standardError)")
                #expect(result.standardError.hasPrefix("error: \(file): ") && result.standardError.contains(fragment), "\(command): \(result.standardError)")
                #expect(result.standardError.split(separator: "\n").count == 1, "\(command): \(result.standardError)")
            }
            let validate = try Run.docctl(["validate", "--json", file], in: corpus)
            #expect(validate.status == 1, "validate \(file): \(validate.standardError)")
            #expect(validate.output.contains(#""valid" : false"#))
        }
        #expect(try Run.docctl(["get", "head-missing.dkproj", "name"], in: corpus).output == "Good\n")
        // The nested document breaks only what parses the document.
        expectFailure(try Run.docctl(["get", "document-nested.dkproj", "name"], in: corpus), status: 65, containing: "nested more than 256 levels")
        let nested = try Run.docctl(["validate", "document-nested.dkproj"], in: corpus)
        #expect(nested.status == 1 && nested.output.contains("document.stale") && nested.output.contains("document.invalid-json"))
        // Bad CRC in document.json: reading it fails, validation locates it.
        expectFailure(try Run.docctl(["cat", "bad-crc.dkproj"], in: corpus), status: 65, containing: "document.json")
        let crc = try Run.docctl(["validate", "bad-crc.dkproj"], in: corpus)
        #expect(crc.status == 1 && crc.output.contains("entry 'document.json'"), "\(crc.output)")
        // The zip bomb is stopped by the limits, quickly.
        let start = Date()
        let bomb = try Run.docctl(["import", "bomb.zip", "-o", "bomb.dkproj"], in: corpus)
        #expect(bomb.status == 65, "\(bomb.standardError)")
        #expect(bomb.standardError.hasPrefix("error: bomb.zip: "), "\(bomb.standardError)")
        #expect(Date().timeIntervalSince(start) < 20)

        // Nothing was changed, nothing was written.
        #expect(Fixtures.listing(corpus) == digests.keys.sorted())
        for (name, digest) in digests {
            #expect(try Fixtures.digest(of: corpus.appendingPathComponent(name)) == digest, "\(name) changed")
        }
    }

    @Test func aMissingFileIs66AndAnUnwritableOutputIs73() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        for command in [["info", "nope.dkproj"], ["cat", "nope.dkproj"], ["validate", "nope.dkproj"], ["import", "nope", "-o", "x.dkproj"]] {
            expectFailure(try Run.docctl(command, in: directory.url), status: 66, containing: "nope")
        }
        expectFailure(try Run.docctl(["export", "p.dkproj", "--format", "zip", "-o", "no/such/folder/p.zip"], in: directory.url),
                      status: 73, containing: "no/such/folder")
        expectFailure(try Run.docctl(["info", "."], in: directory.url), status: 65, containing: "not a regular file")
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"])
    }
}
