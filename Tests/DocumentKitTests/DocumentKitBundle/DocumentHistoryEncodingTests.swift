import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// In format 2, old documents are stored as reverse deltas: small, exact, readable by
/// other tools, and never in a loop. (Format 3's forward deltas: FormatThreeBundleTests.)
@Suite struct DocumentHistoryEncodingTests {
    /// A bundle of `saves` + 1 versions of a 2,000-task project, each save renaming one
    /// task; returns it with every version's document text, oldest first.
    private func history(saves: Int, in directory: TemporaryDirectory) throws -> (URL, [Data]) {
        let url = directory.url.appendingPathComponent("h.dkproj")
        var metadata = SaveMetadata(author: "test", created: Date(timeIntervalSince1970: 1_767_225_600))
        metadata.formatVersion = 2
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: GeneratedProject.document(taskCount: 2_000, seed: 7), metadata: metadata)
        var texts = [try DocumentBundle(contentsOf: url).headDocumentData()]
        for save in 1...saves {
            let path = try JSONPath(parsing: "tasks[id=\(GeneratedProject.id(save * 37 % 2_000))].title")
            _ = try BundleEdits.set(.string("Renamed in save \(save)"), at: path, in: url, metadata: metadata)
            texts.append(try DocumentBundle(contentsOf: url).headDocumentData())
        }
        return (url, texts)
    }

    @Test func oldDocumentsAreSmallDeltasThatRebuildExactly() throws {
        let directory = try TemporaryDirectory()
        let (url, texts) = try history(saves: 12, in: directory)
        let bundle = try DocumentBundle(contentsOf: url)
        let versions = try bundle.manifest.versions
        for (version, text) in zip(versions, texts) {
            #expect(try bundle.documentData(of: version) == text, "version \(version.number)")
            let digest = ObjectDigest.of(text)
            let record = try #require(bundle.manifest.objects[digest])
            if try version.id == bundle.manifest.head {
                #expect(record.codec == .zstd, "the head's document is stored whole")
            } else {
                #expect(record.codec == .delta && record.storedSize < 200, "version \(version.number): \(record)")
            }
        }
        #expect(try Run.docctl(["cat", "h.dkproj", "--version", "1"], in: directory.url).standardOutput == texts[0])
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
    }

    /// A document larger than the limit for compressing files (16 MiB) is held in memory
    /// by the save anyway: it is compressed, and stored as a delta once it is old, rather
    /// than stored whole, twice, at every save.
    @Test func aDocumentOverSixteenMebibytesIsCompressedAndBecomesADelta() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("big.dkproj")
        var random = SeededRandom(seed: 3)
        let filler = GeneratedProject.phrase(170, using: &random)
        let lines = (0..<18_000).map { "\"line \($0): \(filler)\"" }
        let first = "{\"lines\":[\(lines.joined(separator: ","))]}"
        #expect(first.utf8.count > Int(BundleWriter.compressionLimit) && first.utf8.count < 32 << 20)
        var metadata = SaveMetadata(author: "test")
        metadata.formatVersion = 2
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: GeneratedProject.document(taskCount: 1, seed: 1), metadata: metadata)
        let v1 = try Fixtures.saveVersion(of: url, json: first, schema: "4.0.0")
        let second = first.replacingOccurrences(of: "\"line 9000: ", with: "\"changed 9000: ")
        let v2 = try Fixtures.saveVersion(of: url, json: second, schema: "4.0.0")
        let bundle = try DocumentBundle(contentsOf: url)
        let old = try #require(bundle.manifest.objects[ObjectDigest.of(Data(first.utf8))])
        let head = try #require(bundle.manifest.objects[ObjectDigest.of(Data(second.utf8))])
        #expect(head.codec == .zstd && head.storedSize * 4 < head.size, "\(head)")
        #expect(old.codec == .delta && old.storedSize < 1_000, "\(old)")
        #expect(try bundle.documentData(of: v1) == Data(first.utf8))
        #expect(try bundle.documentData(of: v2) == Data(second.utf8))
        #expect(try Data(contentsOf: url).count < 3 * first.utf8.count / 2, "the head's document plain, and compressed")
    }

    /// Restores (which upgrade the bundle to format 3) read back every version exactly.
    @Test func restoringAnOldVersionKeepsEveryVersionReadable() throws {
        let directory = try TemporaryDirectory()
        let (url, texts) = try history(saves: 6, in: directory)
        try Run.docctl(["restore", "h.dkproj", "2"], in: directory.url)
        try Run.docctl(["set", "h.dkproj", "name", "After the restore"], in: directory.url)
        try Run.docctl(["restore", "h.dkproj", "head~1"], in: directory.url)
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.headDocumentData() == texts[1])
        #expect(bundle.formatVersion == 3)
        for (index, text) in texts.enumerated() {
            #expect(try bundle.documentData(of: bundle.manifest.versions[index]) == text)
        }
        let report = try BundleValidator.validate(url, deep: true)
        #expect(report.findings.isEmpty, "\(report.findings)")
    }

    @Test func pythonRebuildsAnOldVersionFromTheFormatAlone() throws {
        let directory = try TemporaryDirectory()
        let (url, texts) = try history(saves: 5, in: directory)
        // FORMAT.md §4's reader and §4.1's reference decoder, nothing else.
        let format = try String(contentsOf: Fixtures.repository.appendingPathComponent("FORMAT.md"), encoding: .utf8)
        let decoder = try #require(
            format.components(separatedBy: "```python\n").dropFirst().first { $0.hasPrefix("def apply_delta") })
        let reader = try #require(
            format.components(separatedBy: "```python\n").dropFirst().first { $0.hasPrefix("def read_object") })
        let script = """
            import json, subprocess, sys, zipfile
            \(decoder.components(separatedBy: "```")[0])
            \(reader.components(separatedBy: "```")[0])
            bundle = zipfile.ZipFile(sys.argv[1])
            manifest = json.loads(bundle.read("manifest.json"))
            first = manifest["versions"][0]
            root = json.loads(read_object(bundle, manifest, first["tree"]))
            document = next(e for e in root["entries"] if e["name"] == "document.json")
            sys.stdout.buffer.write(read_object(bundle, manifest, document["digest"]))
            """
        let result = try ExternalTool.python(script, [url.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == texts[0])
    }

    @Test func aDeltaChainThatLoopsIsReportedNotFollowed() throws {
        let directory = try TemporaryDirectory()
        let (url, texts) = try history(saves: 2, in: directory)
        // Make the head's document a delta based on the oldest one, whose chain leads back.
        let head = ObjectDigest.of(texts[2]).hex
        let oldest = ObjectDigest.of(texts[0]).hex
        let looped = directory.url.appendingPathComponent("looped.dkproj")
        let script = """
            import json, sys, zipfile
            source = zipfile.ZipFile(sys.argv[1])
            manifest = json.loads(source.read("manifest.json"))
            manifest["objects"][sys.argv[3]].update(codec="delta", base=sys.argv[4])
            with zipfile.ZipFile(sys.argv[2], "w") as out:
                for info in source.infolist():
                    data = json.dumps(manifest).encode() if info.filename == "manifest.json" else source.read(info.filename)
                    out.writestr(zipfile.ZipInfo(info.filename, (1980, 1, 1, 0, 0, 0)), data)
            """
        #expect(try ExternalTool.python(script, [url.path, looped.path, head, oldest]).status == 0)
        let validate = try Run.docctl(["validate", "looped.dkproj"], in: directory.url)
        #expect(validate.status == 1)
        #expect(validate.output.contains("object.delta-loop"), "\(validate.output)")
        expectFailure(
            try Run.docctl(["cat", "looped.dkproj", "--version", "1"], in: directory.url), status: 65,
            containing: "loops back")
    }
}
