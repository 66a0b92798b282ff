import Foundation
import Testing

@testable import DocumentKit

/// A remote in the layout of releases before 0.4 (one OCFL version per bundle version,
/// `SampleDocs/ocfl-1`, frozen) stays readable forever: it clones with every version id,
/// a copy pulls from it, and a push onto it continues the object in the history layout,
/// its old versions left byte for byte, the whole judged valid by ocfl-py.
@Suite struct OCFLOldLayoutTests {
    /// A copy of the frozen remote in a new temporary folder.
    private func frozenRemote() throws -> (TemporaryDirectory, URL) {
        let directory = try TemporaryDirectory()
        let remote = directory.url.appendingPathComponent("remote")
        try FileManager.default.copyItem(at: Fixtures.sampleDoc("ocfl-1/remote"), to: remote)
        return (directory, remote)
    }

    /// The nine version ids of the frozen garden: format-2 garden's eight, and "Tomatoes planted".
    private func gardenIDs() throws -> [VersionID] {
        try DocumentBundle(contentsOf: Fixtures.sampleDoc("format-2/garden.dkproj")).manifest.versions.map(\.id)
            + ["c55469930e48db96cb330ad1720a2c074aaa2d44c67636ded97bf2a7696e3b59"]
    }

    @Test func itClonesAndAPushContinuesItInTheHistoryLayout() throws {
        let (directory, remote) = try frozenRemote()
        let clone = directory.url.appendingPathComponent("clone.dkproj")
        let cloned = try RemoteFetcher.clone(FolderRemoteStore(root: remote), to: clone)
        #expect(try cloned.versions == 9 && cloned.head == gardenIDs().last)
        #expect(try DocumentBundle(contentsOf: clone).manifest.versions.map(\.id) == gardenIDs())
        #expect(try BundleValidator.validate(clone, deep: true).findings.isEmpty)

        let object = try #require(
            try FileManager.default.subpathsOfDirectory(atPath: remote.path).first {
                $0.hasSuffix("/0=ocfl_object_1.1")
            })
        let objectFolder = remote.appendingPathComponent(String(object.dropLast("/0=ocfl_object_1.1".count)))
        let before = try OCFLDepositTests().hashes(objectFolder).filter { $0.key.hasPrefix("v") }
        let behind = directory.url.appendingPathComponent("behind.dkproj")
        try FileManager.default.copyItem(at: clone, to: behind)
        _ = try BundleEdits.set(
            .string("Planted"), at: try JSONPath(parsing: "summary"), in: clone, metadata: FormatThreeFixtures.metadata)
        let pushed = try RemotePusher.push(clone, to: FolderRemoteStore(root: remote))
        #expect(
            pushed.result == .pushed && pushed.newVersions == ["v10"] && pushed.totalVersions == 10
                && pushed.newVersionIDs.count == 1)
        // The old versions as they were, inventories and all; the new one of the history layout.
        let after = try OCFLDepositTests().hashes(objectFolder)
        #expect(before.allSatisfy { after[$0.key] == $0.value })
        let inventory = try JSONDecoder().decode(
            OCFLInventory.self, from: Data(contentsOf: objectFolder.appendingPathComponent("inventory.json")))
        #expect(inventory.headLayout == .history && OCFLLayout.of(inventory.versions["v9"]!) == .versionPerVersion)

        // A copy behind pulls the new version from it, and a clone holds all ten.
        try withExtendedLifetime(directory) {
            _ = try RemoteFetcher.withRemoteCopy(of: behind, from: FolderRemoteStore(root: remote)) { copy in
                try BundlePuller.pull(into: behind, from: copy, metadata: FormatThreeFixtures.metadata)
            }
        }
        #expect(
            try DocumentBundle(contentsOf: behind).headVersion.id == DocumentBundle(contentsOf: clone).headVersion.id)
        let again = directory.url.appendingPathComponent("again.dkproj")
        _ = try RemoteFetcher.clone(FolderRemoteStore(root: remote), to: again)
        #expect(
            try DocumentBundle(contentsOf: again).manifest.versions.map(\.id)
                == DocumentBundle(contentsOf: clone).manifest.versions.map(\.id))
        if OCFLDepositTests.validatorAvailable {
            let root = try RemoteInterruptionTests.validateRoot(remote.path)
            #expect(root.valid && root.errors.isEmpty, "\(root.output)")
        }
    }

    @Test func aCopyPullsFromItUnchanged() throws {
        let (directory, remote) = try frozenRemote()
        let copy = directory.url.appendingPathComponent("g.dkproj")
        try FileManager.default.copyItem(at: Fixtures.sampleDoc("format-2/garden.dkproj"), to: copy)
        let listing = try FileManager.default.subpathsOfDirectory(atPath: remote.path).sorted()
        _ = try RemoteFetcher.withRemoteCopy(of: copy, from: FolderRemoteStore(root: remote)) { fetched in
            try BundlePuller.pull(into: copy, from: fetched, metadata: FormatThreeFixtures.metadata)
        }
        #expect(try DocumentBundle(contentsOf: copy).manifest.versions.map(\.id) == gardenIDs())
        #expect(
            try FileManager.default.subpathsOfDirectory(atPath: remote.path).sorted() == listing,
            "a pull writes nothing into the remote")
    }
}
