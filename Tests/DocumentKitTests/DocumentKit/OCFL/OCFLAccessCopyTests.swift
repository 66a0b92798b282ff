import Foundation
import Testing

@testable import DocumentKit

/// `docctl archive --with-html`: the head's HTML site as an access copy beside the history
/// in the OCFL version, judged by ocfl-py, left out by every reader of the history, and
/// never carried into a version that did not ask for one (FORMAT.md §10, "Access copies").
@Suite struct OCFLAccessCopyTests {
    private let objectID = "documentkit:67dcbc383a73b7cd82a0bf7de73c37a8ad4e85d426b94bd23033f86d81365c63"

    private func inventory(of object: URL) throws -> OCFLInventory {
        try JSONDecoder().decode(
            OCFLInventory.self, from: Data(contentsOf: object.appendingPathComponent("inventory.json")))
    }

    /// The files of `version`'s state below `access/`, by their path in the site, with the
    /// SHA-256 of the content file each names.
    private func accessCopy(_ version: String, of object: URL) throws -> [String: String] {
        let inventory = try inventory(of: object)
        var files: [String: String] = [:]
        for (digest, paths) in try #require(inventory.versions[version]).state {
            for path in paths where path.hasPrefix("access/") {
                let content = try #require(inventory.manifest[digest]?.first)
                files[String(path.dropFirst("access/".count))] = try Fixtures.digest(
                    of: object.appendingPathComponent(content))
            }
        }
        return files
    }

    @Test(.enabled(if: OCFLDepositTests.validatorAvailable, OCFLDepositTests.skipReason))
    func theVersionHoldsTheSiteAnExportWritesAndStaysValid() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let archived = try Run.succeeding(["archive", "garden.dkproj", "root", "--with-html"], in: directory.url)
        #expect(
            archived.output
                == """
                archived garden.dkproj to root: object \(objectID), 8 new versions in v1, 18 files stored; an access \
                copy, access/index.html

                """)
        // The access copy is the site `export --format html` writes of the head, file for file.
        try Run.succeeding(["export", "garden.dkproj", "--format", "html", "-o", "site"], in: directory.url)
        let site = try OCFLDepositTests().hashes(directory.url.appendingPathComponent("site"))
        let object = try OCFLDepositTests.objectFolder("root", of: "garden.dkproj", in: directory)
        let access = try accessCopy("v1", of: object)
        #expect(access == site && access["index.html"] != nil && access["blobs/thumbnail.png"] != nil)
        // Beside the history, which is as an archive without it holds it.
        let history = try inventory(of: object).versions["v1"]!.state.values.joined().filter {
            !$0.hasPrefix("access/")
        }
        #expect(
            history.sorted() == [
                "history/000000000001-000000000008", "manifest.json", "mimetype",
                "objects/a2/aedb2da4c642c7f817d62a9689e7281ffdbfdc9c9a97766af19cd8aaf54acc"
            ])

        let report = try OCFLDepositTests.validateObject(object)
        #expect(report.valid && report.errors == [] && report.warnings == ["W008", "W010"], "\(report)")
        #expect(try OCFLDepositTests.validateRoot(directory.url.appendingPathComponent("root")).valid)

        // Readers of the history leave the access copy out: the bundle comes back whole.
        try Run.succeeding(["import", object.path, "-o", "imported.dkproj"], in: directory.url)
        try Run.succeeding(["clone", "root", "-o", "cloned.dkproj"], in: directory.url)
        let original = try Run.succeeding(["log", "garden.dkproj", "--json"], in: directory.url).output
        for copy in ["imported.dkproj", "cloned.dkproj"] {
            #expect(try Run.succeeding(["log", copy, "--json"], in: directory.url).output == original)
            #expect(
                try Run.succeeding(["cat", copy], in: directory.url).output
                    == (try Run.succeeding(["cat", "garden.dkproj"], in: directory.url).output))
            try Run.succeeding(["validate", copy], in: directory.url)
        }
    }

    @Test(.enabled(if: OCFLDepositTests.validatorAvailable, OCFLDepositTests.skipReason))
    func aVersionHoldsAnAccessCopyOnlyWhenAskedAndOneAloneWhenTheHeadIsArchived() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Run.succeeding(["archive", "garden.dkproj", "root", "--with-html"], in: directory.url)
        let object = try OCFLDepositTests.objectFolder("root", of: "garden.dkproj", in: directory)
        let first = try accessCopy("v1", of: object)

        // Archived without asking: the new version names no access copy, v1 keeps its own.
        try Run.succeeding(["set", "garden.dkproj", "name", "Kitchen garden"], in: directory.url)
        let plain = try Run.succeeding(["archive", "garden.dkproj", "root"], in: directory.url)
        #expect(
            plain.output == "archived garden.dkproj to root: object \(objectID), 1 new version in v2, 2 files stored\n")
        #expect(try accessCopy("v2", of: object).isEmpty)
        #expect(try accessCopy("v1", of: object) == first)

        // Asked again with nothing new: a version of the access copy alone, the history as v2's.
        let alone = try Run.succeeding(["archive", "garden.dkproj", "root", "--with-html", "--json"], in: directory.url)
        let result = try JSONDecoder().decode(OCFLDeposit.Result.self, from: Data(alone.output.utf8))
        #expect(result.newVersions == ["v3"] && result.newVersionIDs == [] && result.totalVersions == 9)
        #expect(result.accessCopy == "access/index.html" && !result.createdObject)
        let inventory = try inventory(of: object)
        let head = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("garden.dkproj")).headVersion
        #expect(inventory.versions["v3"]?.message == "Access copy of version 9 (\(head.shortID))")
        let v2 = inventory.versions["v2"]!.state.values.joined().sorted()
        let v3 = inventory.versions["v3"]!.state.values.joined()
        #expect(v3.filter { !$0.hasPrefix("access/") }.sorted() == v2)
        let second = try accessCopy("v3", of: object)
        #expect(second["index.html"] != first["index.html"], "the site of the new head")
        #expect(second["style.css"] == first["style.css"])

        // The head version holds one already: nothing to add.
        let again = try Run.succeeding(["archive", "garden.dkproj", "root", "--with-html"], in: directory.url)
        #expect(again.output.hasSuffix(", no new versions (it has 9), 0 files stored\n"))
        let report = try OCFLDepositTests.validateObject(object)
        #expect(report.valid && report.errors == [], "\(report)")

        // The next archive's version again names only the history.
        try Run.succeeding(["set", "garden.dkproj", "name", "Garden"], in: directory.url)
        try Run.succeeding(["archive", "garden.dkproj", "root"], in: directory.url)
        #expect(try accessCopy("v4", of: object).isEmpty)
    }

    @Test func trustedGoesWithWithHTML() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        expectFailure(
            try Run.docctl(["archive", "garden.dkproj", "root", "--trusted", "keys"], in: directory.url),
            status: 64, containing: "--trusted names signers in an access copy: it goes with --with-html")
        #expect(!FileManager.default.fileExists(atPath: directory.path("root")))
    }
}
