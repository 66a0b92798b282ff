import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// The byte scan `validate --deep` uses on old versions finds exactly the blob references,
/// and hands over to the parser when text only looks like one.
@Suite struct BlobReferenceScanTests {
    private let a = String(repeating: "a", count: 64), b = String(repeating: "b", count: 64)

    @Test func findsEveryReferenceInTextOrder() throws {
        let text = #"{"tasks": [{"attachments": [{"$blob" : "\#(a)", "size": 1}]}], "thumbnail": {"$blob":"\#(b)"}}"#
        #expect(BlobReferenceScan.digests(in: Data(text.utf8)) == [a, b])
        let references = try JSONValue.parse(Data(text.utf8)).blobReferences().map(\.digest)
        #expect(Set(references) == [a, b], "the parser agrees")
        #expect(BlobReferenceScan.digests(in: Data(#"{"name": "no blobs"}"#.utf8)) == [])
    }

    @Test func textThatOnlyLooksLikeAReferenceIsLeftToTheParser() {
        // `$blob` between escaped quotes inside a string is no match at all…
        #expect(BlobReferenceScan.digests(in: Data(#"{"notes": "say \"$blob\": \"\#(a)\""}"#.utf8)) == [])
        // …and one whose opening quote is escaped (the string ends after it) is left to the parser.
        #expect(BlobReferenceScan.digests(in: Data(#"{"notes": "x\"$blob"}"#.utf8)) == nil)
        // A `$blob` member that is not a string of 64 characters.
        #expect(BlobReferenceScan.digests(in: Data(#"{"x": {"$blob": 5}}"#.utf8)) == nil)
        #expect(BlobReferenceScan.digests(in: Data(#"{"x": {"$blob": "short"}}"#.utf8)) == nil)
    }

    @Test func deepValidationFindsAnOldVersionsMissingBlob() throws {
        let directory = try TemporaryDirectory()
        // Format 2, whose manifest the damage below edits.
        let url = directory.url.appendingPathComponent("p.dkproj")
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: JSONValue.parse(Data(#"{"name": "Garden"}"#.utf8)),
            metadata: .formatTwo())
        let png = try Fixtures.write(Fixtures.png, to: "t.png", in: directory.url)
        _ = try BundleEdits.attach(png, at: nil, in: url, metadata: .formatTwo())
        _ = try BundleEdits.remove(at: JSONPath(parsing: "thumbnail"), in: url, metadata: .formatTwo())
        // Version 2's tree loses its blobs folder: its document's reference dangles.
        let bundle = try DocumentBundle(contentsOf: url)
        let second = try bundle.manifest.versions[1]
        let root = try TreeObject.decode(try bundle.objectData(second.tree), digest: second.tree)
        let stripped = try TreeObject(entries: root.entries.filter { $0.name != "blobs" }).encoded()
        let script = """
            import json, sys, zipfile
            source = zipfile.ZipFile(sys.argv[1])
            manifest = json.loads(source.read("manifest.json"))
            tree = open(sys.argv[3], "rb").read()
            import hashlib
            digest = hashlib.sha256(tree).hexdigest()
            manifest["objects"][digest] = {"codec": "identity", "size": len(tree), "storedSize": len(tree)}
            with zipfile.ZipFile(sys.argv[2], "w") as out:
                for info in source.infolist():
                    if info.filename == "manifest.json":
                        out.writestr(zipfile.ZipInfo("objects/" + digest[:2] + "/" + digest[2:], (1980, 1, 1, 0, 0, 0)), tree)
                        continue
                    out.writestr(zipfile.ZipInfo(info.filename, (1980, 1, 1, 0, 0, 0)), source.read(info.filename))
                # The version record keeps its old tree id: point it at the stripped tree.
                manifest["versions"][1]["tree"] = digest
                out.writestr(zipfile.ZipInfo("manifest.json", (1980, 1, 1, 0, 0, 0)), json.dumps(manifest))
            """
        let treeFile = try Fixtures.write(stripped, to: "tree.json", in: directory.url)
        let damaged = directory.url.appendingPathComponent("damaged.dkproj")
        #expect(try ExternalTool.python(script, [url.path, damaged.path, treeFile.path]).status == 0)
        let report = try BundleValidator.validate(damaged, deep: true)
        #expect(
            report.findings.contains { $0.code == "blob.unresolved" && $0.version == 2 && $0.path == "thumbnail" },
            "\(report.findings)")
    }
}
