import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// Small builders for the files tests work on.
enum Fixtures {
    /// A real 1x1 PNG (67 bytes).
    static let png = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
        0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
        0x42, 0x60, 0x82
    ])

    /// Deterministic pseudo-random bytes (incompressible), so tests need no /dev/urandom.
    static func noise(_ count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        return Data(bytes)
    }

    /// A project with `taskCount` tasks whose ids are fixed.
    static func project(name: String = "Garden", taskCount: Int = 3) -> Project {
        Project(
            name: name, createdAt: Date(timeIntervalSince1970: 1_767_225_600),
            tasks: (0..<taskCount).map { index in
                ProjectTask(
                    id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", index))!,
                    title: "Task \(index)",
                    priority: index % 2 == 0 ? .high : .low)
            })
    }

    /// Writes `data` to `name` in `directory` and returns its URL.
    @discardableResult
    static func write(_ data: Data, to name: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    /// The names of everything in `directory` (not recursive), sorted.
    static func listing(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// The SHA-256 of a file, to prove it unchanged.
    static func digest(of url: URL) throws -> String {
        ObjectDigest.of(try Data(contentsOf: url)).hex
    }
}

extension Fixtures {
    /// The repository's root folder: where Package.swift is.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A bundle of `SampleDocs`, as committed (copy it before changing it).
    static func sampleDoc(_ name: String) -> URL {
        repository.appendingPathComponent("SampleDocs/\(name)")
    }

    /// Copies the sample bundle `name` into `directory` and returns the copy's URL.
    static func copySampleDoc(_ name: String, to directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent((name as NSString).lastPathComponent)
        try FileManager.default.copyItem(at: sampleDoc(name), to: url)
        return url
    }

    /// Rewrites the bundle at `path` with Python, running `edit` on `entries` (a dict of
    /// name -> bytes, in order) and `manifest` (parsed), which is written back: how tests
    /// alter a record by hand, as someone outside DocumentKit would. `record_text(v)` is
    /// FORMAT.md §5's, to give an altered record its id again.
    static func tamperManifest(_ path: String, _ edit: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    {
        let result = try ExternalTool.python(
            """
            import hashlib, json, sys, zipfile
            def record_text(v):
                s = lambda text: f"{len(text.encode())}:{text}"
                number = f"number {v['number']}\\n" if "number" in v else ""
                return (f"documentkit-version {1 if 'number' in v else 2}\\n{number}"
                        f"parents {s(','.join(v['parents']))}\\n"
                        f"created {s(v['created'])}\\nauthor {s(v['author'])}\\nmessage {s(v['message'])}\\n"
                        f"schema {s(v['schema'])}\\ntree {v['tree']}\\nwriter {s(v['writer'])}\\n").encode()
            path = sys.argv[1]
            src = zipfile.ZipFile(path)
            entries = {i.filename: src.read(i.filename) for i in src.infolist()}
            src.close()
            manifest = json.loads(entries["manifest.json"])
            \(edit)
            entries["manifest.json"] = json.dumps(manifest).encode()
            with zipfile.ZipFile(path, "w") as z:
                for n, d in entries.items():
                    z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), d)
            """, [path])
        try #require(result.status == 0, "\(result.standardError)", sourceLocation: sourceLocation)
    }

    /// Adds a version to the bundle at `url` whose document is `json` and which records
    /// `schema`, as a build that knows that schema would save it.
    @discardableResult
    static func saveVersion(of url: URL, json: String, schema: String, message: String = "Written by a newer build")
        throws -> BundleVersion
    {
        let bundle = try DocumentBundle(contentsOf: url)
        let root = FileWrapper(directoryWithFileWrappers: [
            VersionLayout.documentName: FileWrapper(regularFileWithContents: Data(json.utf8))
        ])
        var metadata = SaveMetadata(
            author: "future", message: message, created: Date(timeIntervalSince1970: 1_800_000_000))
        // In the bundle's own layout (a format-1 bundle becomes format 2), so that a test of
        // format 2 stays one.
        metadata.formatVersion = max(bundle.formatVersion, BundleManifest.wholeManifestFormatVersion)
        let request = BundleWriter.Request(
            root: root, contentType: Project.contentType.identifier, mimeType: Project.contentType.mimeType,
            schema: schema,
            metadata: metadata,
            base: bundle, destination: url, replace: true)
        return try #require(try BundleWriter.write(request))
    }
}

extension SaveMetadata {
    /// A save that writes format 2, whose `manifest.json` lists every record and object:
    /// for tests of format 2, which DocumentKit reads for ever, and of tampering with it.
    static func formatTwo(author: String = "t", message: String = "") -> SaveMetadata {
        var metadata = SaveMetadata(author: author, message: message)
        metadata.formatVersion = BundleManifest.wholeManifestFormatVersion
        return metadata
    }
}
