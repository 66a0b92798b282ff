@testable import DocumentKit
import Foundation
import Testing

/// Damage is found and located: each finding names its code, and the entry, version or
/// JSON path where it is.
@Suite struct ValidationTests {
    /// Rewrites the bundle at `path` with Python, running `edit` on `entries` (a dict of
    /// name -> bytes, in order) and `manifest` (parsed).
    private func tamper(_ path: String, _ edit: String) throws {
        let result = try ExternalTool.python("""
            import json, sys, zipfile
            path = sys.argv[1]
            src = zipfile.ZipFile(path)
            entries = {i.filename: src.read(i.filename) for i in src.infolist()}
            src.close()
            manifest = json.loads(entries["manifest.json"])
            \(edit.replacingOccurrences(of: "\n", with: "\n"))
            entries["manifest.json"] = json.dumps(manifest).encode()
            with zipfile.ZipFile(path, "w") as z:
                for n, d in entries.items():
                    z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d)
            """, [path])
        try #require(result.status == 0, "\(result.standardError)")
    }

    private func makeBundle(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("p.dkproj")
        var project = Fixtures.project()
        project.thumbnail = BlobReference(data: Fixtures.noise(5_000), mediaType: "image/png")
        let controller = DocumentController(newDocument: project, at: url)
        try controller.save(message: "one", author: "ada")
        controller.document.name = "Two"
        try controller.save(message: "two", author: "ada")
        return url
    }

    private func findings(_ url: URL, deep: Bool = true) throws -> [ValidationFinding] {
        try BundleValidator.validate(url, deep: deep).findings
    }

    @Test func aSavedBundleIsValidDeeply() throws {
        let directory = try TemporaryDirectory()
        let report = try BundleValidator.validate(try makeBundle(directory), deep: true)
        #expect(report.valid && report.findings.isEmpty && report.versions == 2)
    }

    @Test func aDamagedObjectIsFoundByItsDigest() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(directory)
        let blob = ObjectDigest.of(Fixtures.noise(5_000))
        try tamper(url.path, "entries['\(blob.entryName)'] = bytes([entries['\(blob.entryName)'][0] ^ 1]) + entries['\(blob.entryName)'][1:]")
        #expect(try findings(url, deep: false).isEmpty, "sizes still agree: only a deep check reads the bytes")
        let found = try findings(url)
        #expect(found.map(\.code) == ["object.digest-mismatch"])
        #expect(found.first?.entry == blob.entryName)
    }

    @Test func aMissingObjectAndAnUnlistedOneAreReported() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(directory)
        let blob = ObjectDigest.of(Fixtures.noise(5_000))
        try tamper(url.path, "entries['objects/00/' + '0' * 62] = b'stray'\ndel entries['\(blob.entryName)']")
        let found = try findings(url, deep: false)
        #expect(found.contains { $0.code == "object.missing" && $0.entry == blob.entryName && $0.severity == .error })
        #expect(found.contains { $0.code == "object.unlisted" && $0.severity == .warning })
    }

    @Test func anAlteredVersionRecordIsCaught() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(directory)
        try tamper(url.path, "manifest['versions'][0]['author'] = 'mallory'")
        let found = try findings(url, deep: false)
        #expect(found.map(\.code) == ["version.id-mismatch"])
        #expect(found.first?.version == 1)
    }

    @Test func aParentThatIsNowhereIsCaught() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(directory)
        try tamper(url.path, "manifest['versions'][1]['parents'] = ['f' * 64]")
        let found = try findings(url, deep: false)
        #expect(found.map(\.code).sorted() == ["version.id-mismatch", "version.parent-missing"])
        #expect(found.first { $0.code == "version.parent-missing" }?.message == "names a parent (ffffffffffff) that is neither in the bundle nor recorded as pruned")
    }

    @Test func aFormatOneHistoryIsOneLine() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("format-1/garden.dkproj", to: directory)
        #expect(try findings(url).isEmpty)
        // Version 3 made from version 1: a graph format 2 allows, a line format 1 does not.
        try tamper(url.path, "manifest['versions'][2]['parents'] = [manifest['versions'][0]['id']]")
        let found = try findings(url, deep: false)
        #expect(found.map(\.code).sorted() == ["version.chain-broken", "version.id-mismatch"])
        #expect(found.allSatisfy { $0.version == 3 })
    }

    @Test func aDocumentThatBreaksItsSchemaIsLocatedByPath() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(directory)
        let bundle = try DocumentBundle(contentsOf: url)
        let broken = String(decoding: try bundle.headDocumentData(), as: UTF8.self).replacingOccurrences(of: "\"title\" : \"Task 1\"", with: "\"title\" : 7")
        try tamper(url.path, "entries['document.json'] = \(JSONValue.string(broken).jsonText(pretty: false)).encode()")
        let found = try findings(url, deep: false)
        #expect(found.contains { $0.code == "document.stale" })
        let schema = try #require(found.first { $0.code == "document.schema" })
        #expect(schema.path == "tasks[1].title")
        #expect(schema.message.hasPrefix("expected a string, found number"))
        #expect(schema.version == 2)
    }

    @Test func anUnresolvedBlobIsLocatedByPath() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(directory)
        let blob = ObjectDigest.of(Fixtures.noise(5_000))
        let document = String(decoding: try DocumentBundle(contentsOf: url).headDocumentData(), as: UTF8.self)
            .replacingOccurrences(of: blob.hex, with: String(repeating: "e", count: 64))
        try tamper(url.path, "entries['document.json'] = \(JSONValue.string(document).jsonText(pretty: false)).encode()")
        let found = try findings(url, deep: false)
        #expect(found.contains { $0.code == "blob.unresolved" && $0.path == "thumbnail" })
    }
}
