import Foundation
import Testing

@testable import DocumentKit

/// `docctl archive` and `docctl import OBJECT`: a bundle's history as an OCFL 1.1 object,
/// judged by ocfl-py's validator, and rebuilt with every version id.
@Suite struct OCFLDepositTests {
    /// ocfl-py, as `scripts/setup.sh` installs it.
    static let tools = Fixtures.repository.appendingPathComponent(".tools/ocfl/bin")
    static let validatorAvailable = FileManager.default.isExecutableFile(
        atPath: tools.appendingPathComponent("ocfl-validate.py").path)
    static let python = ExternalTool(name: "python3", path: tools.appendingPathComponent("python3").path)
    static let skipReason: Comment =
        "ocfl-py is not installed: run scripts/setup.sh (it installs .tools/ocfl/bin/ocfl-validate.py)"

    @discardableResult
    private func docctl(
        _ arguments: [String], in directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ExternalTool.Result {
        let result = try Run.docctl(arguments, in: directory.url)
        #expect(result.status == 0, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        return result
    }

    static func objectFolder(_ root: String, of bundle: String, in directory: TemporaryDirectory) throws -> URL {
        let manifest = try DocumentBundle(contentsOf: directory.url.appendingPathComponent(bundle)).manifest
        return directory.url.appendingPathComponent(root).appendingPathComponent(
            OCFLStorageRoot.objectPath(for: OCFLDeposit.objectID(of: manifest)))
    }

    /// ocfl-py on the object folder: the warning codes it printed, and whether it said VALID.
    static func validateObject(_ object: URL) throws -> (warnings: Set<String>, errors: [String], valid: Bool) {
        let result = try Self.python.run([Self.tools.appendingPathComponent("ocfl-validate.py").path, object.path])
        let lines = (result.output + result.standardError).split(separator: "\n").map(String.init)
        let codes = lines.compactMap { line in
            line.firstRange(of: "[W").map { String(line[$0.lowerBound...].dropFirst().prefix(while: { $0 != "]" })) }
        }
        return (
            Set(codes), lines.filter { $0.contains("[E") }, result.status == 0 && result.output.contains("is VALID")
        )
    }

    /// ocfl-py on the storage root, with layout 0004 registered (ocfl_validate_0004.py says why).
    static func validateRoot(_ root: URL) throws -> (errors: [String], valid: Bool) {
        let script = Fixtures.repository.appendingPathComponent("Tests/OCFLValidator/ocfl_validate_0004.py").path
        let result = try Self.python.run([script, root.path])
        let lines = result.output.split(separator: "\n").map(String.init)
        return (
            lines.filter { $0.contains("[E") || $0.contains("[LAYOUT]") },
            result.status == 0 && lines.last?.contains("is VALID") == true
        )
    }

    /// Every file below `folder`, by relative path, with its SHA-256.
    func hashes(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder.path)! {
            let url = folder.appendingPathComponent(path)
            if (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
                result[path] = try Fixtures.digest(of: url)
            }
        }
        return result
    }

    private func ids(_ bundle: String, in directory: TemporaryDirectory) throws -> [VersionID] {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(bundle)).manifest.versions.map(\.id)
    }

    /// Each version's document, by id.
    private func documents(_ bundle: String, in directory: TemporaryDirectory) throws -> [VersionID: Data] {
        let opened = try DocumentBundle(contentsOf: directory.url.appendingPathComponent(bundle))
        return try Dictionary(
            uniqueKeysWithValues: opened.manifest.versions.map { ($0.id, try opened.documentData(of: $0)) })
    }

    @Test(.enabled(if: validatorAvailable, skipReason))
    func theValidatorFindsTheRootAndTheObjectValid() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let result = try docctl(["archive", "garden.dkproj", "root"], in: directory)
        let objectID = "documentkit:67dcbc383a73b7cd82a0bf7de73c37a8ad4e85d426b94bd23033f86d81365c63"
        #expect(
            result.output
                == "archived garden.dkproj to root: object \(objectID), 8 new versions in v1, 4 files stored\n")
        #expect(
            Fixtures.listing(directory.url.appendingPathComponent("root")) == [
                "0=ocfl_1.1", "7f9", "extensions", "ocfl_layout.json"
            ])
        let object = try Self.objectFolder("root", of: "garden.dkproj", in: directory)
        // One OCFL version, holding the bundle's history: mimetype, manifest.json, its
        // segment and the thumbnail stored alone.
        #expect(Fixtures.listing(object) == ["0=ocfl_object_1.1", "inventory.json", "inventory.json.sha512", "v1"])
        let inventory = try JSONDecoder().decode(
            OCFLInventory.self, from: Data(contentsOf: object.appendingPathComponent("inventory.json")))
        #expect(
            inventory.versions["v1"]?.state.values.joined().sorted() == [
                "history/000000000001-000000000008", "manifest.json", "mimetype",
                "objects/a2/aedb2da4c642c7f817d62a9689e7281ffdbfdc9c9a97766af19cd8aaf54acc"
            ])
        // Its authors have no e-mail address, which OCFL's user block SHOULD have (W008), and
        // its version keeps no copy of the inventory (W010): the object's is its one copy.
        let report = try Self.validateObject(object)
        #expect(report.valid && report.errors == [] && report.warnings == ["W008", "W010"], "\(report)")
        let root = try Self.validateRoot(directory.url.appendingPathComponent("root"))
        #expect(root.valid && root.errors == [], "\(root)")
    }

    @Test(.enabled(if: validatorAvailable, skipReason))
    func archivingAgainAddsOnlyNewVersionsAndLeavesOldOnesByteForByte() throws {
        let directory = try TemporaryDirectory()
        let ada = "Ada Lovelace <ada@example.org>"
        try docctl(["new", "p.dkproj", "--name", "Garden", "--author", ada], in: directory)
        try docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "Dig"}"#, "--author", ada], in: directory)
        try docctl(["archive", "p.dkproj", "root"], in: directory)
        let object = try Self.objectFolder("root", of: "p.dkproj", in: directory)
        let before = try hashes(object).filter { $0.key.hasPrefix("v1/") }

        try Fixtures.write(Fixtures.noise(3_000), to: "photo.png", in: directory.url)
        try docctl(["attach", "p.dkproj", "photo.png", "-m", "Photo", "--author", ada], in: directory)
        try docctl(["set", "p.dkproj", "tasks[0].title", "Dig deep", "--author", ada], in: directory)
        let again = try docctl(["archive", "p.dkproj", "root", "--json"], in: directory)
        let report = try JSONDecoder().decode(OCFLDeposit.Result.self, from: Data(again.output.utf8))
        #expect(report.newVersions == ["v2"] && report.totalVersions == 4 && !report.createdObject)
        #expect(report.newVersionIDs == Array(try ids("p.dkproj", in: directory).suffix(2)))
        #expect(report.filesStored == 3, "a segment with both versions, the manifest, and the photo stored alone")
        // v1 is as it was.
        let after = try hashes(object)
        #expect(before.allSatisfy { after[$0.key] == $0.value })
        #expect(Set(after.keys.filter { $0.hasPrefix("v1/") }) == Set(before.keys))

        let none = try docctl(["archive", "p.dkproj", "root"], in: directory)
        #expect(none.output.hasSuffix(", no new versions (it has 4), 0 files stored\n"))
        #expect(
            Fixtures.listing(directory.url.appendingPathComponent("root/extensions")) == [
                "0004-hashed-n-tuple-storage-layout"
            ])
        // No version keeps its own inventory (W010): the object's is its one copy.
        let validation = try Self.validateObject(object)
        #expect(validation.valid && validation.warnings == ["W010"] && validation.errors.isEmpty, "\(validation)")
        #expect(try Self.validateRoot(directory.url.appendingPathComponent("root")).valid)
    }

    @Test(.enabled(if: validatorAvailable, skipReason))
    func versionsPrunedFromTheBundleStayInTheArchive() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let original = try ids("garden.dkproj", in: directory)
        try docctl(["archive", "garden.dkproj", "root"], in: directory)
        let object = try Self.objectFolder("root", of: "garden.dkproj", in: directory)
        let before = try hashes(object).filter { $0.key.hasPrefix("v1/content/") }
        try docctl(["prune", "garden.dkproj", "--keep", "2"], in: directory)
        try docctl(["set", "garden.dkproj", "summary", "After the prune"], in: directory)
        let result = try docctl(["archive", "garden.dkproj", "root"], in: directory)
        #expect(result.output.contains(", 1 new version in v2, "))
        #expect(
            try Self.objectFolder("root", of: "garden.dkproj", in: directory) == object,
            "the object id survives the prune")
        let after = try hashes(object)
        #expect(before.allSatisfy { after[$0.key] == $0.value })
        let report = try Self.validateObject(object)
        #expect(report.valid && report.errors == [] && report.warnings == ["W008", "W010"], "\(report)")
        #expect(try Self.validateRoot(directory.url.appendingPathComponent("root")).valid)

        try docctl(["import", object.path, "-o", "whole.dkproj"], in: directory)
        #expect(try ids("whole.dkproj", in: directory) == original + [try ids("garden.dkproj", in: directory).last!])
        #expect(try docctl(["validate", "--deep", "whole.dkproj"], in: directory).output.contains(": ok ("))
    }

    /// A push names the files the object's head holds by their SHA-512, and learns a new
    /// file's as it sends it, so it needs no fixity. An object written by another tool
    /// gives none: its next version carries the files it keeps by digest, sends only what is
    /// new, and the object stays valid and whole.
    @Test(.enabled(if: validatorAvailable, skipReason))
    func anObjectWithoutSHA256FixityTakesTheNextVersionValid() throws {
        let directory = try TemporaryDirectory()
        let ada = "Ada Lovelace <ada@example.org>"
        try docctl(["new", "p.dkproj", "--name", "Garden", "--author", ada], in: directory)
        try Fixtures.write(Fixtures.noise(3_000, seed: 11), to: "photo.png", in: directory.url)
        try docctl(["attach", "p.dkproj", "photo.png", "-m", "Photo", "--author", ada], in: directory)
        try docctl(["archive", "p.dkproj", "root"], in: directory)
        let object = try Self.objectFolder("root", of: "p.dkproj", in: directory)
        // As another tool writes it: no fixity block, in the root's inventory and in v1's.
        var inventory = try JSONDecoder().decode(
            OCFLInventory.self, from: Data(contentsOf: object.appendingPathComponent("inventory.json")))
        inventory.fixity = nil
        for folder in ["", "v1/"] {
            let data = try inventory.encoded()
            try data.write(to: object.appendingPathComponent(folder + "inventory.json"))
            try OCFLInventory.sidecar(for: data).write(
                to: object.appendingPathComponent(folder + "inventory.json.sha512"))
        }
        let photo = try #require(inventory.manifest.first { $0.value.contains { $0.contains("/objects/") } })

        try docctl(["set", "p.dkproj", "name", "Garden two", "--author", ada], in: directory)
        let again = try docctl(["archive", "p.dkproj", "root", "--json"], in: directory)
        let report = try JSONDecoder().decode(OCFLDeposit.Result.self, from: Data(again.output.utf8))
        #expect(report.filesStored == 2, "the segment and the manifest; the photo is the object's")
        let after = try JSONDecoder().decode(
            OCFLInventory.self, from: Data(contentsOf: object.appendingPathComponent("inventory.json")))
        #expect(after.manifest[photo.key] == photo.value)
        #expect(
            !after.manifest.keys.contains { $0.count != 128 }, "every digest a SHA-512: \(after.manifest.keys.sorted())"
        )
        #expect(after.versions["v2"]?.state[photo.key] == after.versions["v1"]?.state[photo.key])
        let validation = try Self.validateObject(object)
        #expect(validation.valid && validation.warnings == ["W010"] && validation.errors.isEmpty, "\(validation)")
        try docctl(["import", object.path, "-o", "copy.dkproj"], in: directory)
        #expect(try documents("copy.dkproj", in: directory) == documents("p.dkproj", in: directory))
        #expect(try docctl(["validate", "--deep", "copy.dkproj"], in: directory).output.contains(": ok ("))
    }

    @Test func importRebuildsEveryVersionIdDocumentAndBlobWithAMerge() throws {
        let directory = try TemporaryDirectory()
        try docctl(["new", "a.dkproj", "--name", "Garden"], in: directory)
        try docctl(["set", "a.dkproj", "tasks[+]", #"{"title": "Dig"}"#], in: directory)
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("b.dkproj"))
        try Fixtures.write(Fixtures.noise(5_000), to: "photo.png", in: directory.url)
        try docctl(["attach", "a.dkproj", "photo.png", "-m", "Photo"], in: directory)
        try docctl(["set", "b.dkproj", "tasks[+]", #"{"title": "Sow"}"#, "-m", "Sow"], in: directory)
        try docctl(["pull", "a.dkproj", "b.dkproj"], in: directory)
        let merge = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("a.dkproj")).headVersion
        #expect(merge.parents.count == 2)

        try docctl(["archive", "a.dkproj", "root"], in: directory)
        let object = try Self.objectFolder("root", of: "a.dkproj", in: directory)
        let imported = try docctl(["import", object.path, "-o", "copy.dkproj", "--json"], in: directory)
        let report = try JSONDecoder().decode(OCFLImporter.Result.self, from: Data(imported.output.utf8))
        #expect(report.versions == 5 && report.head == merge.id && report.pruned == 0)
        #expect(try ids("copy.dkproj", in: directory) == ids("a.dkproj", in: directory))
        #expect(try documents("copy.dkproj", in: directory) == documents("a.dkproj", in: directory))
        let (copy, original) = try (
            DocumentBundle(contentsOf: directory.url.appendingPathComponent("copy.dkproj")),
            DocumentBundle(contentsOf: directory.url.appendingPathComponent("a.dkproj"))
        )
        #expect(try copy.manifest.versions == original.manifest.versions, "every record, changes included")
        let blob = try #require(copy.tree(of: copy.headVersion)["blobs"]?.fileWrappers?.first?.value)
        #expect(try blob.regularFileContents() == Fixtures.noise(5_000))
        #expect(try docctl(["validate", "--deep", "copy.dkproj"], in: directory).output.contains(": ok ("))
        #expect(Fixtures.listing(directory.url).filter { $0.hasPrefix(".") } == [])
    }

    @Test func importRebuildsAFormatOneBundle() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            at: Fixtures.sampleDoc("format-1/garden.dkproj"), to: directory.url.appendingPathComponent("old.dkproj"))
        try docctl(["archive", "old.dkproj", "root"], in: directory)
        try docctl(
            ["import", try Self.objectFolder("root", of: "old.dkproj", in: directory).path, "-o", "copy.dkproj"],
            in: directory)
        let (copy, original) = try (
            DocumentBundle(contentsOf: directory.url.appendingPathComponent("copy.dkproj")),
            DocumentBundle(contentsOf: directory.url.appendingPathComponent("old.dkproj"))
        )
        #expect(try copy.manifest.versions == original.manifest.versions)
        #expect(try copy.manifest.versions.allSatisfy { $0.numberInID != nil && $0.recordFormat == 1 })
        #expect(try documents("copy.dkproj", in: directory) == documents("old.dkproj", in: directory))
        #expect(try docctl(["validate", "--deep", "copy.dkproj"], in: directory).output.contains(": ok ("))
    }

    @Test func aTamperedContentFileIsRefusedAndNothingIsWritten() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try docctl(["archive", "garden.dkproj", "root"], in: directory)
        let object = try Self.objectFolder("root", of: "garden.dkproj", in: directory)
        // An archive is a push: its new files are below a folder named after its head's id.
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: object.appendingPathComponent("v1/content").path).first)
        let contentPath = "v1/content/\(folder)/history/000000000001-000000000008"
        let content = object.appendingPathComponent(contentPath)
        var bytes = try Data(contentsOf: content)
        bytes[bytes.count / 2] ^= 0x20
        try bytes.write(to: content)
        let result = try Run.docctl(["import", object.path, "-o", "copy.dkproj"], in: directory.url)
        expectFailure(
            result, status: 65,
            containing: "v1: content file \(contentPath) is damaged: its SHA-512 is not the inventory's")
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj", "root"])
    }

    /// Issue 23: `import ROOT` said `ROOT/document.json: cannot open`; a storage root holds
    /// projects to clone, which the refusal says with the user's own paths.
    @Test func importOfAStorageRootSuggestsClone() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try docctl(["archive", "garden.dkproj", "root"], in: directory)
        let before = Fixtures.listing(directory.url)
        let result = try Run.docctl(["import", "root", "-o", "g.dkproj"], in: directory.url)
        expectFailure(
            result, status: 64,
            containing:
                """
                error: root: is an OCFL storage root (a folder remote), not an export: 'docctl clone root -o \
                g.dkproj' copies the project it holds
                """
        )
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(Fixtures.listing(directory.url) == before, "nothing written")
        try docctl(["clone", "root", "-o", "g.dkproj"], in: directory)
    }

    @Test func aFolderThatIsNotAnOCFLRootIsRefusedUntouched() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("photos"), withIntermediateDirectories: false)
        try Fixtures.write(Data("mine".utf8), to: "photos/notes.txt", in: directory.url)
        let result = try Run.docctl(["archive", "garden.dkproj", "photos"], in: directory.url)
        expectFailure(
            result, status: 73,
            containing:
                "error: photos: not a DocumentKit remote (an OCFL 1.1 storage root) and not empty: it holds notes.txt")
        #expect(Fixtures.listing(directory.url.appendingPathComponent("photos")) == ["notes.txt"])
        let missing = try Run.docctl(["archive", "absent.dkproj", "root"], in: directory.url)
        #expect(missing.status == 66, "\(missing.standardError)")
    }

    @Test func aBundleWhoseHistoryDivergedFromTheObjectIsRefused() throws {
        let directory = try TemporaryDirectory()
        try docctl(["new", "a.dkproj", "--name", "Garden"], in: directory)
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("b.dkproj"))
        try docctl(["set", "a.dkproj", "name", "Garden A"], in: directory)
        try docctl(["set", "b.dkproj", "name", "Garden B"], in: directory)
        try docctl(["archive", "a.dkproj", "root"], in: directory)
        let object = try Self.objectFolder("root", of: "a.dkproj", in: directory)
        let before = try hashes(object)
        let result = try Run.docctl(["archive", "b.dkproj", "root"], in: directory.url)
        expectFailure(
            result, status: 65,
            containing: "error: b.dkproj: its history diverged from the archived object's: the object's head v1")
        #expect(try hashes(object) == before)
        // Once b holds a's versions (a pull), it continues the object.
        try docctl(["pull", "b.dkproj", "a.dkproj", "--ours"], in: directory)
        #expect(try docctl(["archive", "b.dkproj", "root"], in: directory).output.contains("2 new versions in v2"))
    }
}
