import Foundation
import Testing

@testable import DocumentKit

/// The `compression` setting reaches saves: `none` stores new objects as they are, the
/// default compresses them with zstd; what a bundle already has is copied as it is.
@Suite struct CompressionSettingTests {
    /// 60 KB of text, which zstd shrinks to a few hundred bytes.
    private let notes = Data(String(repeating: "Sow the beans after the last frost. ", count: 1_700).utf8)

    @discardableResult
    private func docctl(_ arguments: [String], in directory: TemporaryDirectory) throws -> ExternalTool.Result {
        let result = try Run.docctl(
            arguments, in: directory.url, environment: ["XDG_CONFIG_HOME": directory.path("config")])
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result
    }

    /// `{digest: [codec, size, storedSize]}`: each object the bundle's history stores.
    private func objectRecords(_ url: URL) throws -> [String: [String]] {
        try DocumentBundle(contentsOf: url).manifest.objects.reduce(into: [:]) { records, object in
            records[object.key.hex] = [
                object.value.codec.rawValue, "\(object.value.size)", "\(object.value.storedSize)"
            ]
        }
    }

    @Test func noneStoresAnAttachedFileAsItIsAndTheDefaultCompressesIt() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.write(notes, to: "notes.txt", in: directory.url)
        let digest = ObjectDigest.of(notes).hex
        let size = "\(notes.count)"

        try docctl(["new", "default.dkproj", "--name", "Garden"], in: directory)
        try docctl(["attach", "default.dkproj", "notes.txt"], in: directory)
        let compressed = try #require(try objectRecords(directory.url.appendingPathComponent("default.dkproj"))[digest])
        #expect(
            compressed[0] == "zstd" && compressed[1] == size && Int(compressed[2])! < notes.count / 10, "\(compressed)")

        try docctl(["config", "set", "compression", "none"], in: directory)
        try docctl(["new", "none.dkproj", "--name", "Garden"], in: directory)
        try docctl(["attach", "none.dkproj", "notes.txt"], in: directory)
        try docctl(
            ["set", "none.dkproj", "summary", String(repeating: "Beds, seeds and a shed. ", count: 20)], in: directory)
        let none = directory.url.appendingPathComponent("none.dkproj")
        let records = try objectRecords(none)
        #expect(records[digest] == ["identity", size, size])
        #expect(records.values.allSatisfy { $0[0] == "identity" || $0[0] == "delta" }, "\(records)")
        // Readable without zstd.
        let entry = "objects/\(digest.prefix(2))/\(digest.dropFirst(2))"
        #expect(try ExternalTool.unzip.run(["-p", none.path, entry]).standardOutput == notes)

        for name in ["default.dkproj", "none.dkproj"] {
            #expect(try docctl(["validate", "--deep", name], in: directory).output.hasPrefix("\(name): ok ("))
        }
    }

    @Test func objectsTheBundleHasAreCopiedAsTheyAre() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.write(notes, to: "notes.txt", in: directory.url)
        try docctl(["new", "p.dkproj", "--name", "Garden"], in: directory)
        try docctl(["attach", "p.dkproj", "notes.txt"], in: directory)
        let url = directory.url.appendingPathComponent("p.dkproj")
        let before = try objectRecords(url)[ObjectDigest.of(notes).hex]
        #expect(before?[0] == "zstd")

        try docctl(["config", "set", "compression", "none"], in: directory)
        try Fixtures.write(notes + Data("And the peas.".utf8), to: "more.txt", in: directory.url)
        try docctl(["attach", "p.dkproj", "more.txt"], in: directory)  // the new thumbnail
        let after = try objectRecords(url)
        #expect(after[ObjectDigest.of(notes).hex] == before, "not re-stored")
        #expect(after[ObjectDigest.of(notes + Data("And the peas.".utf8)).hex]?[0] == "identity")
        #expect(try docctl(["validate", "--deep", "p.dkproj"], in: directory).status == 0)
    }

    @Test func aLibraryCallerChoosesPerSave() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        var project = Fixtures.project()
        project.thumbnail = BlobReference(data: notes, mediaType: "text/plain")
        let controller = DocumentController(newDocument: project, at: url)
        try controller.save(message: "one", author: "ada", compression: .none)
        #expect(try DocumentBundle(contentsOf: url).manifest.objects[ObjectDigest.of(notes)]?.codec == .identity)

        let more = notes + notes
        controller.document.thumbnail = BlobReference(data: more, mediaType: "text/plain")
        try controller.save(message: "two", author: "ada", compression: .zstd)
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.manifest.objects[ObjectDigest.of(more)]?.codec == .zstd)
        #expect(try bundle.manifest.objects[ObjectDigest.of(notes)]?.codec == .identity)
        #expect(SaveMetadata(author: "ada", compression: .none).compression == ObjectCompression.none)
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
    }

    /// A damaged setting must not stop saves (as an author that cannot be read does not
    /// when --author is given): it counts as unset, and `config get` reports it.
    @Test func aCompressionSettingThatCannotBeReadCountsAsZstd() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.write(notes, to: "notes.txt", in: directory.url)
        try docctl(["new", "p.dkproj", "--name", "Garden"], in: directory)
        try FileManager.default.createDirectory(
            atPath: directory.path("config/docctl"), withIntermediateDirectories: true)
        let preferences = directory.path("config/docctl/preferences.json")
        try Data(#"{"compression": "gzip"}"#.utf8).write(to: URL(fileURLWithPath: preferences))
        try docctl(["attach", "p.dkproj", "notes.txt"], in: directory)
        #expect(
            try objectRecords(directory.url.appendingPathComponent("p.dkproj"))[ObjectDigest.of(notes).hex]?[0]
                == "zstd")
        let get = try Run.docctl(
            ["config", "get", "compression"], in: directory.url,
            environment: ["XDG_CONFIG_HOME": directory.path("config")])
        expectFailure(
            get, status: 65,
            containing:
                "error: \(preferences): key 'compression': expected one of zstd or none, found \"gzip\" (a string)\n")
    }
}
