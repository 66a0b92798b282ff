import DocumentKit
import Foundation
import Testing

/// A bag of every version (`export --format bagit --all-versions`; FORMAT.md §7, "BagIt"):
/// each distinct file once, and an import that restores every version with its id, so that
/// the restored copy still exchanges with the original (issue 23).
@Suite struct BagItHistoryTests {
    /// docctl in `directory`, with a signing key of its own there.
    @discardableResult
    private func docctl(
        _ arguments: [String], in directory: TemporaryDirectory, status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ExternalTool.Result {
        let result = try Run.docctl(
            arguments, in: directory.url, environment: ["XDG_CONFIG_HOME": directory.path("config")])
        #expect(result.status == status, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        return result
    }

    /// `a.dkproj`: a project of two authors merged, signed from its third version on, with
    /// a 1 MB thumbnail that eight later versions keep.
    private func project(in directory: TemporaryDirectory) throws -> URL {
        try Fixtures.twoCopies(in: directory.url)
        try docctl(["key", "new"], in: directory)
        try docctl(["set", "a.dkproj", "name", "Garden of two"], in: directory)
        try docctl(["pull", "a.dkproj", "b.dkproj"], in: directory)
        try Fixtures.write(Fixtures.noise(1_000_000, seed: 23), to: "big.bin", in: directory.url)
        try docctl(["attach", "a.dkproj", "big.bin", "--as", "thumbnail"], in: directory)
        for index in 1...8 {
            try docctl(["set", "a.dkproj", "name", "Garden \(index)", "-m", "Rename \(index)"], in: directory)
        }
        return directory.url.appendingPathComponent("a.dkproj")
    }

    @Test(.enabled(if: BagItTests.bagit.isAvailable, "bagit.py is not installed: run scripts/setup.sh"))
    func aBagOfEveryVersionKeepsEachFileOnceAndImportsEveryVersionWithItsId() throws {
        let directory = try TemporaryDirectory()
        let original = try DocumentBundle(contentsOf: try project(in: directory))
        #expect(try original.manifest.versions.count == 13)
        #expect(
            try original.manifest.versions.contains { $0.parents.count == 2 }
                && original.manifest.versions.contains { $0.signature != nil })
        try docctl(["export", "a.dkproj", "--format", "bagit", "--all-versions", "-o", "bag"], in: directory)
        let validation = try BagItTests.validate(directory.path("bag"))
        #expect(validation.status == 0, "\(validation.standardError)")
        // Each distinct file once: no two payload files hold the same bytes, and the 1 MB
        // thumbnail, which nine versions have, is one file, under its name.
        let manifest = try String(contentsOfFile: directory.path("bag/manifest-sha256.txt"), encoding: .utf8).split(
            separator: "\n")
        let digests = manifest.map { $0.split(separator: " ")[0] }
        #expect(Set(digests).count == digests.count, "\(manifest)")
        #expect(Fixtures.listing(directory.url.appendingPathComponent("bag/data/blobs")) == ["big.bin"])
        #expect(
            try Fixtures.listing(directory.url.appendingPathComponent("bag/data/versions"))
                == original.manifest.versions.map { "\($0.number)-\($0.shortID)" }.sorted())
        let info = try String(contentsOfFile: directory.path("bag/bag-info.txt"), encoding: .utf8)
        let payloadBytes = info.split(separator: "\n").first { $0.hasPrefix("Payload-Oxum: ") }.flatMap {
            UInt64($0.dropFirst(14).split(separator: ".")[0])
        }
        #expect((payloadBytes ?? .max) < 1_200_000, "\(info)")
        // Each version's record, as an OCFL version's documentkit/version.json.
        #expect(
            try Fixtures.listing(directory.url.appendingPathComponent("bag/documentkit/records"))
                == original.manifest.versions.map { "\($0.number)-\($0.shortID).json" }.sorted())

        let planned = try docctl(["import", "bag", "-o", "back.dkproj", "--dry-run"], in: directory)
        let project = OCFLDeposit.objectID(of: try original.manifest)
        #expect(
            planned.output
                == "would import bag into back.dkproj: 13 versions of project \(project); nothing was written\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path("back.dkproj")))
        let imported = try docctl(["import", "bag", "-o", "back.dkproj"], in: directory)
        #expect(
            try imported.output
                == """
                imported bag into back.dkproj: 13 versions of project \(project), head \
                \(original.manifest.head.prefix(12))\n
                """
        )
        let back = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("back.dkproj"))
        // Ids, parents, authors, dates, messages, schemas, trees and signatures: every record as it was.
        #expect(try back.manifest.versions == original.manifest.versions)
        #expect(try back.manifest.head == original.manifest.head)
        for version in try original.manifest.versions {
            #expect(
                try docctl(["cat", "back.dkproj", "--version", "\(version.number)"], in: directory).output
                    == docctl(["cat", "a.dkproj", "--version", "\(version.number)"], in: directory).output)
        }
        #expect(
            try docctl(["extract", "back.dkproj", "thumbnail", "-o", "-"], in: directory).standardOutput
                == Fixtures.noise(1_000_000, seed: 23))
        try docctl(["verify", "back.dkproj"], in: directory)
        try docctl(["validate", "back.dkproj", "--deep"], in: directory)
        // The restored copy exchanges with the original: each has all the other has.
        try docctl(["set", "a.dkproj", "name", "After the bag"], in: directory)
        try docctl(["pull", "back.dkproj", "a.dkproj"], in: directory)
        #expect(
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent("back.dkproj")).manifest.versions
                == DocumentBundle(contentsOf: directory.url.appendingPathComponent("a.dkproj")).manifest.versions)
    }

    @Test func aBagWhoseFilesAreNotTheirVersionsTreesIsRefused() throws {
        let directory = try TemporaryDirectory()
        _ = try project(in: directory)
        try docctl(["export", "a.dkproj", "--format", "bagit", "--all-versions", "-o", "bag"], in: directory)
        // The first version said to have the second's document: its tree is not its record's.
        let url = directory.url.appendingPathComponent("bag/documentkit/versions.json")
        var versions = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        var files = try #require(versions[0]["files"] as? [String: String])
        files["document.json"] = try #require((versions[1]["files"] as? [String: String])?["document.json"])
        versions[0]["files"] = files
        try JSONSerialization.data(withJSONObject: versions).write(to: url)
        let before = Fixtures.listing(directory.url)
        expectFailure(
            try docctl(["import", "bag", "-o", "back.dkproj"], in: directory, status: 65), status: 65,
            containing: "error: bag: \(versions[0]["path"] as! String): its files are not the tree its record names")
        #expect(Fixtures.listing(directory.url) == before, "nothing written")
    }

    /// A bag of every version written before each file was kept once (every version's files
    /// whole under data/versions/, no record) still imports as it did: its newest version.
    @Test(.enabled(if: BagItTests.bagit.isAvailable, "bagit.py is not installed: run scripts/setup.sh"))
    func anOlderBagOfEveryVersionStillImportsItsNewestVersion() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let versions = try DocumentBundle(contentsOf: garden).manifest.versions
        let old = directory.url.appendingPathComponent("old")
        try FileManager.default.createDirectory(
            at: old.appendingPathComponent("versions"), withIntermediateDirectories: true)
        for version in versions {
            try Run.succeeding(
                [
                    "export", garden.path, "--version", "\(version.number)", "--format", "dir",
                    "-o", "old/versions/\(version.number)-\(version.shortID)"
                ], in: directory.url)
        }
        // bagit.py makes the folder a bag in place: its files move under data/.
        let made = try BagItTests.bagit.run(["--sha256", "--sha512", old.path])
        #expect(made.status == 0, "\(made.standardError)")
        let imported = try Run.succeeding(["import", "old", "-o", "back.dkproj"], in: directory.url)
        #expect(imported.output.hasPrefix("imported old into back.dkproj at version 1 "), "\(imported.output)")
        #expect(
            try Run.succeeding(["cat", "back.dkproj"], in: directory.url).output
                == Run.succeeding(["cat", garden.path], in: directory.url).output)
    }
}
