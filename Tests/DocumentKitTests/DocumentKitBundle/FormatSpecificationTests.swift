import Foundation
import Testing

@testable import DocumentKit

/// FORMAT.md is enough to read a bundle: `Tests/FormatReader/read_bundle.py`, written from
/// the page alone and running the page's own Python, reads every version of every sample
/// (and of a bundle with what the samples lack) as DocumentKit does, and refuses what the
/// page forbids.
@Suite struct FormatSpecificationTests {
    private static let reader = Fixtures.repository.appendingPathComponent("Tests/FormatReader/read_bundle.py").path
    private static let format = Fixtures.repository.appendingPathComponent("FORMAT.md").path

    private struct Row: Codable, Equatable {
        var bundle: String
        var number: Int
        var id: String
        var document: String
    }

    /// What DocumentKit reads from `url`: each version's number, id and document digest.
    private func rows(of url: URL) throws -> [Row] {
        let bundle = try DocumentBundle(contentsOf: url)
        return try bundle.manifest.versions.map {
            Row(
                bundle: url.path, number: $0.number, id: $0.id,
                document: ObjectDigest.of(try bundle.documentData(of: $0)).hex)
        }
    }

    /// A bundle with a blob stored whole, one stored as zstd, a removed blob, old
    /// documents stored as deltas, and text whose UTF-8 is longer than its characters.
    private func richBundle(in directory: TemporaryDirectory) throws -> URL {
        try Fixtures.write(Fixtures.noise(300_000), to: "photo.bin", in: directory.url)
        try Fixtures.write(
            Data(String(repeating: "compressible text ", count: 20_000).utf8), to: "notes.txt", in: directory.url)
        try Run.docctl(["new", "rich.dkproj", "--name", "Zoë's ☀︎ plan"], in: directory.url)
        try Run.docctl(["attach", "rich.dkproj", "photo.bin", "--author", "Zoë"], in: directory.url)
        try Run.docctl(
            ["attach", "rich.dkproj", "notes.txt", "--as", "thumbnail", "-m", "línea 1\nlínea 2: más"],
            in: directory.url)
        for index in 0..<4 {
            try Run.docctl(["set", "rich.dkproj", "tasks[+]", #"{"title": "Tâche \#(index)"}"#], in: directory.url)
        }
        return directory.url.appendingPathComponent("rich.dkproj")
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable && ExternalTool.zstd.isAvailable, "needs python3 and zstd"))
    func aReaderWrittenFromThePageReadsEveryVersionAsDocumentKitDoes() throws {
        let directory = try TemporaryDirectory()
        let samples = try ["", "format-1/", "format-2/"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: Fixtures.sampleDoc(folder).path)
                .filter { $0.hasSuffix(".dkproj") }.sorted().map { Fixtures.sampleDoc(folder + $0) }
        }
        let bundles = samples + [try richBundle(in: directory)]
        let result = try ExternalTool.python3.run([Self.reader, Self.format] + bundles.map(\.path))
        #expect(result.status == 0, "\(result.standardError)")
        let read = try result.output.split(separator: "\n").map {
            try JSONDecoder().decode(Row.self, from: Data($0.utf8))
        }
        let expected = try bundles.flatMap(rows(of:))
        #expect(read == expected)
        #expect(read.count > 30)
        // The rich bundle has what the samples lack.
        let rich = try DocumentBundle(contentsOf: bundles.last!)
        #expect(try Set(rich.manifest.objects.values.map(\.codec)) == [.identity, .zstd, .delta])
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable && ExternalTool.zstd.isAvailable, "needs python3 and zstd"))
    func theReaderRefusesAVersionRecordEditedByHand() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("format-2/garden.dkproj", to: directory)
        // Change one author in the manifest, keeping every length, and rewrite the bundle
        // with Python's zipfile: the record no longer hashes to its id.
        let script = """
            import sys, zipfile
            source = zipfile.ZipFile(sys.argv[1])
            entries = [(info, source.read(info)) for info in source.infolist()]
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_STORED) as target:
                for info, data in entries:
                    if info.filename == "manifest.json":
                        data = data.replace(b'"Sample Author"', b'"Sample Autho!"', 1)
                    target.writestr(info, data)
            """
        let forged = directory.url.appendingPathComponent("forged.dkproj")
        #expect(try ExternalTool.python3.run(["-c", script, url.path, forged.path]).status == 0)
        let result = try ExternalTool.python3.run([Self.reader, Self.format, forged.path])
        #expect(result.status == 1)
        #expect(result.standardError == "error: version 1: the record text does not hash to its id\n")
    }

    /// §12.7's worked example shows `SampleDocs/small.dkproj`'s manifest byte for byte, and
    /// its sizes and id are the sample's.
    @Test func theWorkedExampleOfFormatThreeIsTheSmallSample() throws {
        let page = try String(contentsOfFile: Self.format, encoding: .utf8)
        let section = try #require(page.components(separatedBy: "### 12.7 A worked example").dropFirst().first)
        let shown = try #require(
            section.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let bundle = try DocumentBundle(contentsOf: Fixtures.sampleDoc("small.dkproj"))
        let manifest = try bundle.zip.readData(#require(bundle.zip.entry(named: "manifest.json")))
        #expect(Data(shown.utf8) == manifest)
        let segment = try #require(bundle.history?.segments.first)
        #expect(
            section.contains(
                """
                \(segment.name.dropFirst("history/".count))  \
                \(try #require(bundle.zip.entry(named: segment.name)).size) bytes
                """
            ))
        #expect(section.contains("`\(try bundle.manifest.versions[0].id.prefix(8))…`"))
    }
}
