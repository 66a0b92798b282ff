import Foundation
import Testing

@testable import DocumentKit

/// A push repairs what killed pushes left in the object before it plans (FORMAT.md §10):
/// files in version folders the inventory does not name. It read the inventory first, so
/// another push committing between that read and the repair made the new version look
/// like a killed push's leftovers, and the repair removed it: the remote's inventory then
/// named a version folder that was gone (found by RemoteInterruptionTests' race of two
/// pushes, one round in many). The repair now runs under the object's lock, and only while
/// the inventory is the one it read.
@Suite struct RemoteRepairRaceTests {
    @Test func aRepairPlannedOnAnOlderInventoryLeavesAVersionCommittedSinceInPlace() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 20, saves: 3)
        let root = directory.url.appendingPathComponent("remote")
        let first = try RemotePusher.push(url, to: FolderRemoteStore(root: root))
        // What a second push read when it started: the object at its first version.
        let remote = FolderRemoteStore(root: root)
        let read = try RemoteObjectSnapshot.read(remote, objectPath: first.objectPath, expectedID: first.objectID)
        let inventory = try #require(read.inventory)
        // Then another push commits a version.
        try FormatThreeFixtures.addSaves(1, to: url, taskCount: 20, from: 4)
        let second = try RemotePusher.push(url, to: FolderRemoteStore(root: root))
        #expect(second.result == .pushed && second.newVersions == ["v2"], "\(second.result) \(second.newVersions)")
        // And the first push's repair runs, on what it read.
        try RemoteObjectSnapshot.repair(remote, objectPath: first.objectPath, inventory: inventory, tag: read.tag)
        let files = try remote.list(prefix: "\(first.objectPath)/v2/")
        #expect(!files.isEmpty, "the version committed since is in place")
        let clone = directory.url.appendingPathComponent("clone.dkproj")
        _ = try RemoteFetcher.clone(FolderRemoteStore(root: root), to: clone)
        #expect(
            try DocumentBundle(contentsOf: clone).manifest.versions.map(\.id)
                == DocumentBundle(contentsOf: url).manifest.versions.map(\.id))
        // A repair on what is still the object's inventory repairs: a leftover goes.
        let now = try RemoteObjectSnapshot.read(remote, objectPath: first.objectPath, expectedID: first.objectID)
        try remote.write("\(first.objectPath)/v2/content/ffffffffffffffff/left-over", Data("x".utf8))
        try RemoteObjectSnapshot.repair(
            remote, objectPath: first.objectPath, inventory: try #require(now.inventory), tag: now.tag)
        #expect(try remote.size("\(first.objectPath)/v2/content/ffffffffffffffff/left-over") == nil)
    }
}
