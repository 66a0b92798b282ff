import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// Damage is found and located: each finding names its code, and the entry, version or
/// JSON path where it is.
@Suite struct ValidationTests {
    private func tamper(_ path: String, _ edit: String) throws {
        try Fixtures.tamperManifest(path, edit)
    }

    private func makeBundle(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("p.dkproj")
        var project = Fixtures.project()
        project.thumbnail = BlobReference(data: Fixtures.noise(5_000), mediaType: "image/png")
        let controller = DocumentController(newDocument: project, at: url)
        _ = try controller.save(controller.document, metadata: .formatTwo(author: "ada", message: "one"))
        controller.document.name = "Two"
        _ = try controller.save(controller.document, metadata: .formatTwo(author: "ada", message: "two"))
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
        try tamper(
            url.path,
            """
            entries['\(blob.entryName)'] = bytes([entries['\(blob.entryName)'][0] ^ 1]) + \
            entries['\(blob.entryName)'][1:]
            """
        )
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
        #expect(
            found.first { $0.code == "version.parent-missing" }?.message
                == "names a parent (ffffffffffff) that is neither in the bundle nor recorded as pruned")
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
        let broken = String(decoding: try bundle.headDocumentData(), as: UTF8.self).replacingOccurrences(
            of: "\"title\" : \"Task 1\"", with: "\"title\" : 7")
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
        try tamper(
            url.path, "entries['document.json'] = \(JSONValue.string(document).jsonText(pretty: false)).encode()")
        let found = try findings(url, deep: false)
        #expect(found.contains { $0.code == "blob.unresolved" && $0.path == "thumbnail" })
    }

    /// Version 2 adds the thumbnail: its recorded changes list one path and one blob.
    private func makeBundleAddingABlob(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("p.dkproj")
        let controller = DocumentController(newDocument: Fixtures.project(), at: url)
        _ = try controller.save(controller.document, metadata: .formatTwo(author: "ada", message: "one"))
        controller.document.thumbnail = BlobReference(data: Fixtures.noise(5_000), mediaType: "image/png")
        _ = try controller.save(controller.document, metadata: .formatTwo(author: "ada", message: "two"))
        return url
    }

    /// `changes` is not covered by the id, so a signature cannot vouch for it; the trees it
    /// summarises are, and a deep validation holds it to them (FORMAT.md §5.4).
    @Test(arguments: [
        "manifest['versions'][1]['changes']['blobs'] = []",
        "manifest['versions'][1]['changes']['paths'] = []",
        "manifest['versions'][1]['changes']['omitted'] = 3",
        "manifest['versions'][1]['changes']['paths'][0]['kind'] = 'removed'",
        "manifest['versions'][0]['changes'] = manifest['versions'][1]['changes']"
    ])
    func recordedChangesThatTheTreesDoNotGiveAreCaught(_ edit: String) throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundleAddingABlob(directory)
        let recorded = try #require(try DocumentBundle(contentsOf: url).manifest.versions[1].changes)
        #expect(recorded.blobs.count == 1 && recorded.paths.map(\.path) == ["thumbnail"])
        #expect(try findings(url).isEmpty)
        try tamper(url.path, edit)
        #expect(try findings(url, deep: false).isEmpty, "only a deep check reads the documents")
        let found = try findings(url)
        #expect(found.map(\.code) == ["version.changes-mismatch"])
        #expect(found.first?.version == (edit.hasPrefix("manifest['versions'][0]") ? 1 : 2))
    }

    @Test func aMemberTheFormatDoesNotDefineIsCaught() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundleAddingABlob(directory)
        try tamper(
            url.path,
            """
            manifest['versions'][1]['note'] = 'approved by the board'
            manifest['versions'][1]['changes']['blobs'][0]['name'] = 'thumb.png'
            manifest['versions'][0]['signature'] = {'key': 'k', 'value': 'v', 'by': 'ada'}
            """)
        let found = try findings(url, deep: false)
        #expect(found.map(\.code) == ["version.signature-invalid", "version.unknown-member", "version.unknown-member"])
        #expect(
            found.filter { $0.code == "version.unknown-member" }.map(\.message) == [
                """
                its record has a member the format does not define (signature.by), which neither its id nor a \
                signature covers
                """,
                """
                its record has members the format does not define (note, changes.blobs[0].name), which neither its \
                id nor a signature covers
                """
            ])
        #expect(found.filter { $0.code == "version.unknown-member" }.map(\.version) == [1, 2])
    }

    /// §5.1: format-1 records come only before format-2 ones.
    @Test func aFormatOneRecordMadeFromAFormatTwoOneIsCaught() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("format-1/garden.dkproj", to: directory)
        let controller = try DocumentController<Project>(contentsOf: url)
        controller.document.name = "Upgraded"
        _ = try controller.save(controller.document, metadata: .formatTwo(author: "ada", message: "upgrade"))
        let formats = try DocumentBundle(contentsOf: url).manifest.versions.map(\.recordFormat)
        #expect(formats.dropLast().allSatisfy { $0 == 1 } && formats.last == 2)
        #expect(try findings(url).isEmpty)
        // A format-1 record (numbered by its place, its id right) whose parent is the format-2 head.
        try tamper(
            url.path,
            """
            head = manifest['versions'][-1]
            record = {k: head[k] for k in ['created', 'author', 'message', 'schema', 'tree', 'writer']}
            record.update(number=len(manifest['versions']) + 1, parents=[head['id']])
            record['id'] = hashlib.sha256(record_text(record)).hexdigest()
            manifest['versions'].append(record)
            manifest['head'] = record['id']
            """)
        let found = try findings(url)
        #expect(found.map(\.code) == ["version.record-format"])
        #expect(found.first?.version == formats.count + 1)
        #expect(found.first?.message.hasPrefix("is a format-1 record whose parent ") == true)
    }
}
