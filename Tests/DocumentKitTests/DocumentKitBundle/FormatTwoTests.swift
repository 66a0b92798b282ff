import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// Format 2 (FORMAT.md §5): ids that hold in every copy, a graph of versions, and format-1
/// bundles read, verified and upgraded without a byte of their history changing.
@Suite struct FormatTwoTests {
    private let tree = ObjectDigest.of(Data("tree".utf8))
    private let created = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func anIdCoversTheSaveAndNotItsPlace() {
        let here = BundleVersion(
            number: 5, parents: ["a"], created: created, author: "Ada", message: "m", schema: "4.0.0", tree: tree)
        let there = BundleVersion(
            number: 9, parents: ["a"], created: created, author: "Ada", message: "m", schema: "4.0.0", tree: tree)
        #expect(here.id == there.id && here.recordFormat == 2)
        #expect(
            here.recordText == """
                documentkit-version 2
                parents 1:a
                created 20:2026-01-01T00:00:00Z
                author 3:Ada
                message 1:m
                schema 5:4.0.0
                tree \(tree.hex)
                writer \(DocumentKitInfo.writer.utf8.count):\(DocumentKitInfo.writer)

                """)
        let merge = BundleVersion(
            number: 1, parents: ["a", "b"], created: created, author: "Ada", message: "m", schema: "4.0.0", tree: tree)
        #expect(merge.recordText.contains("\nparents 3:a,b\n") && merge.id != here.id)
        // A format-1 record's number is part of its identity.
        let old = BundleVersion(
            number: 5, numberInID: 5, parents: ["a"], created: created, author: "Ada", message: "m", schema: "4.0.0",
            tree: tree)
        let moved = BundleVersion(
            number: 5, numberInID: 6, parents: ["a"], created: created, author: "Ada", message: "m", schema: "4.0.0",
            tree: tree)
        #expect(
            old.recordText.hasPrefix("documentkit-version 1\nnumber 5\nparents 1:a\n") && old.id != moved.id
                && old.id != here.id)
    }

    @Test func aRecordIsWrittenWithItsNumberOnlyWhenItsIdCoversIt() throws {
        let new = BundleVersion(
            number: 5, parents: [], created: created, author: "Ada", message: "m", schema: "4.0.0", tree: tree)
        let old = BundleVersion(
            number: 5, numberInID: 5, parents: [], created: created, author: "Ada", message: "m", schema: "4.0.0",
            tree: tree)
        let members = { (version: BundleVersion) throws -> [String] in
            guard case .object(let object) = try JSONValue.parse(try JSONEncoder().encode(version)) else { return [] }
            return object.keys.sorted()
        }
        #expect(try members(new) == ["author", "created", "id", "message", "parents", "schema", "tree", "writer"])
        #expect(
            try members(old) == ["author", "created", "id", "message", "number", "parents", "schema", "tree", "writer"])
    }

    @Test func aFormatOneBundleIsReadVerifiedAndUpgradedByItsFirstSave() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("format-1/garden.dkproj", to: directory)
        let before = try DocumentBundle(contentsOf: url)
        #expect(try before.manifest.formatVersion == 1 && before.manifest.versions.count == 8)
        #expect(try before.manifest.versions.map(\.number) == Array(1...8))
        #expect(try before.manifest.versions.allSatisfy { $0.recordFormat == 1 && $0.computeID() == $0.id })
        #expect(
            try Run.docctl(["validate", "--deep", "garden.dkproj"], in: directory.url).output
                == "garden.dkproj: ok (8 versions, 18 objects, every digest checked)\n")

        try Run.docctl(["set", "garden.dkproj", "name", "Garden 2", "-m", "Upgraded"], in: directory.url)
        let after = try DocumentBundle(contentsOf: url)
        #expect(after.formatVersion == 3)
        // Every old record is there as it was (with its number), its id still its record's hash.
        #expect(try Array(after.manifest.versions.prefix(8)) == before.manifest.versions)
        #expect(try after.manifest.versions.prefix(8).allSatisfy { $0.recordFormat == 1 && $0.computeID() == $0.id })
        let new = after.headVersion
        #expect(
            try new.number == 9 && new.recordFormat == 2 && new.parents == [before.manifest.head]
                && new.computeID() == new.id)
        #expect(
            try Run.docctl(["validate", "--deep", "garden.dkproj"], in: directory.url).output
                == "garden.dkproj: ok (9 versions, 20 objects, every digest checked)\n")
        // Old versions are still named by their numbers and read as before.
        #expect(
            try Run.docctl(["cat", "garden.dkproj", "--version", "2"], in: directory.url).output
                == Run.docctl(
                    ["cat", Fixtures.sampleDoc("format-1/garden.dkproj").path, "--version", "2"], in: directory.url
                ).output)
    }

    /// The bundles frozen in `SampleDocs/format-2` (issue 25) are read and checked for
    /// ever, keep their ids (those of FORMAT.md's worked example), and take new versions.
    @Test func theFrozenFormatTwoBundlesAreReadVerifiedAndKeepTheirIds() throws {
        let directory = try TemporaryDirectory()
        let sums = try String(contentsOf: Fixtures.sampleDoc("format-2/SHA256SUMS"), encoding: .utf8)
        for line in sums.split(separator: "\n") {
            let (digest, name) = (String(line.prefix(64)), String(line.dropFirst(66)))
            #expect(try Fixtures.digest(of: Fixtures.sampleDoc("format-2/\(name)")) == digest, "\(name) is frozen")
            let url = try Fixtures.copySampleDoc("format-2/\(name)", to: directory)
            let bundle = try DocumentBundle(contentsOf: url)
            #expect(try bundle.manifest.formatVersion == 2, "\(name)")
            #expect(
                try BundleValidator.validate(url, deep: true).findings.allSatisfy { $0.severity == .warning }, "\(name)"
            )
        }
        let url = directory.url.appendingPathComponent("garden.dkproj")
        let before = try DocumentBundle(contentsOf: url)
        #expect(
            try before.manifest.versions.prefix(2).map(\.id) == [
                "67dcbc383a73b7cd82a0bf7de73c37a8ad4e85d426b94bd23033f86d81365c63",
                "07f40aa33a3bde0da6d5f790ea49d5a741d23e005aaff15bbc11c7fee88e9e39"
            ])
        try Run.docctl(["set", "garden.dkproj", "name", "Garden 2", "-m", "Saved again"], in: directory.url)
        let after = try DocumentBundle(contentsOf: url)
        #expect(try Array(after.manifest.versions.prefix(8)) == before.manifest.versions)
        #expect(
            try after.headVersion.parents == [before.manifest.head]
                && after.headVersion.computeID() == after.headVersion.id)
        #expect(
            try Run.docctl(["cat", "garden.dkproj", "--version", "2"], in: directory.url).output
                == Run.docctl(
                    ["cat", Fixtures.sampleDoc("format-2/garden.dkproj").path, "--version", "2"], in: directory.url
                ).output)
    }

    @Test func aPrunedFormatTwoBundleNumbersItsVersionsAfterThePrunedOnes() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        let metadata = SaveMetadata.formatTwo()
        _ = try BundleEdits.create(
            at: url, type: Project.self, json: JSONValue.parse(Data(#"{"name": "P"}"#.utf8)), metadata: metadata)
        for index in 1...4 {
            _ = try BundleEdits.set(.string("P\(index)"), at: JSONPath(parsing: "name"), in: url, metadata: metadata)
        }
        try Run.docctl(["prune", "p.dkproj", "--keep", "2"], in: directory.url)
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        #expect(try bundle.manifest.pruned.count == 3 && bundle.manifest.versions.map(\.number) == [4, 5])
        #expect(try bundle.version(named: "4").id == bundle.manifest.versions[0].id)
        // The head's records, found without decoding the manifest, carry the same number.
        let manifest = try bundle.zip.readData(#require(bundle.zip.entry(named: "manifest.json")))
        #expect(try BundleManifest.headRecords(in: manifest, limits: .default)?.version.number == 5)
        try Run.docctl(["set", "p.dkproj", "name", "P5"], in: directory.url)
        #expect(
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj")).headVersion.number == 6)
    }
}
