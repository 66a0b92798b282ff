import Foundation
import Testing

@testable import DocumentKit

/// Issue 24, item 7: push, clone and pull work whatever either copy pruned. The project's
/// object on a remote is named by its first version ever saved, which a copy keeps in
/// `pruned` when it no longer holds it (a prune, a clone of an object that lacks it), so
/// that the identity does not depend on which versions a copy still holds; and a copy made
/// before that rule (here, one imported from a bag, which keeps only the parents it lacks)
/// still finds its project. Each test runs on a folder and on a bucket of moto's server.
@Suite struct RemotePrunedHistoryTests {
    typealias Remote = RemoteCommandTests.Remote
    typealias Kind = RemoteCommandTests.Kind

    private func manifest(_ bundle: String, in directory: TemporaryDirectory) throws -> BundleManifest {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(bundle)).manifest
    }

    /// `b.dkproj`, named P then two and three, pruned to its head: the start.
    private func prunedProject(in directory: TemporaryDirectory, remote: Remote) throws {
        try remote.succeed(["new", "b.dkproj", "--name", "P"])
        try remote.succeed(["set", "b.dkproj", "name", "two"])
        try remote.succeed(["set", "b.dkproj", "name", "three"])
        try remote.succeed(["prune", "b.dkproj", "--keep", "1"])
    }

    @Test(.enabled(if: RemoteCommandTests.enabled, RemoteCommandTests.skipReason), arguments: Kind.allCases)
    func aPrunedProjectPushesClonesAndPullsAndTheCloneMayPruneToo(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        try prunedProject(in: directory, remote: remote)
        let original = try manifest("b.dkproj", in: directory)
        try remote.succeed(["push", "b.dkproj", remote.address])
        try remote.succeed(["clone", remote.address, "-o", "c.dkproj"])
        let cloned = try manifest("c.dkproj", in: directory)
        // The clone knows the project's first version, which neither copy holds.
        #expect(OCFLDeposit.objectID(of: cloned) == OCFLDeposit.objectID(of: original))
        #expect(
            cloned.pruned.first == original.pruned.first && cloned.versions.map(\.id) == original.versions.map(\.id))
        #expect(
            cloned.versions.map(\.number) == original.versions.map(\.number), "numbered as the copy that pruned them")

        try remote.succeed(["set", "b.dkproj", "name", "four"])
        try remote.succeed(["push", "b.dkproj", remote.address])
        let pulled = try remote.succeed(["pull", "c.dkproj", remote.address])
        #expect(pulled.output.hasPrefix("fast-forward c.dkproj to "), "\(pulled.output)")
        #expect(
            try manifest("c.dkproj", in: directory).versions.map(\.id)
                == manifest("b.dkproj", in: directory).versions.map(\.id))
        try remote.succeed(["validate", "--deep", "c.dkproj"])

        // The receiving copy prunes, and still exchanges both ways.
        try remote.succeed(["prune", "c.dkproj", "--keep", "1"])
        try remote.succeed(["set", "b.dkproj", "name", "five"])
        try remote.succeed(["push", "b.dkproj", remote.address])
        #expect(try remote.succeed(["pull", "c.dkproj", remote.address]).output.hasPrefix("fast-forward c.dkproj to "))
        try remote.succeed(["set", "c.dkproj", "name", "six"])
        let pushed = try remote.succeed(["push", "c.dkproj", remote.address, "--json"])
        let result = try JSONDecoder().decode(RemotePusher.Result.self, from: pushed.standardOutput)
        #expect(
            result.result == .pushed && result.newVersions == ["v4"]
                && result.objectID == OCFLDeposit.objectID(of: original))
        #expect(try remote.succeed(["pull", "b.dkproj", remote.address]).output.hasPrefix("fast-forward b.dkproj to "))
        let head = try manifest("c.dkproj", in: directory).head
        #expect(try manifest("b.dkproj", in: directory).head == head)
        // One project on the remote, with every version pushed: three, four, five, six.
        let store = try remote.store()
        #expect(
            try RemoteRoot.objectPaths(store) == [OCFLStorageRoot.objectPath(for: OCFLDeposit.objectID(of: original))])
        try remote.succeed(["clone", remote.address, "-o", "d.dkproj"])
        let whole = try manifest("d.dkproj", in: directory)
        #expect(
            whole.versions.count == 4 && whole.head == head
                && OCFLDeposit.objectID(of: whole) == OCFLDeposit.objectID(of: original))
    }

    /// A copy that lists only the parent it lacks as pruned (as clones of earlier releases
    /// did, and as a bag of every version of a pruned bundle imports) derives another
    /// object id; it still finds its project on a remote, pulls from it and pushes to it,
    /// and a remote that such a copy created is found by the copy that knows the first version.
    @Test(.enabled(if: RemoteCommandTests.enabled, RemoteCommandTests.skipReason), arguments: Kind.allCases)
    func aCopyThatDoesNotKnowTheFirstVersionStillFindsItsProject(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        try prunedProject(in: directory, remote: remote)
        try remote.succeed(["export", "b.dkproj", "--format", "bagit", "--all-versions", "-o", "bag"])
        try remote.succeed(["import", "bag", "-o", "old.dkproj"])
        let old = try manifest("old.dkproj", in: directory)
        let original = try manifest("b.dkproj", in: directory)
        try #require(
            OCFLDeposit.objectID(of: old) != OCFLDeposit.objectID(of: original),
            "the copy derives another id: \(old.pruned)")

        try remote.succeed(["push", "b.dkproj", remote.address])
        try remote.succeed(["set", "b.dkproj", "name", "four"])
        try remote.succeed(["push", "b.dkproj", remote.address])
        #expect(
            try remote.succeed(["pull", "old.dkproj", remote.address]).output.hasPrefix("fast-forward old.dkproj to "))
        try remote.succeed(["set", "old.dkproj", "name", "five"])
        let pushed = try JSONDecoder().decode(
            RemotePusher.Result.self,
            from: remote.succeed(["push", "old.dkproj", remote.address, "--json"]).standardOutput)
        #expect(pushed.result == .pushed && pushed.objectID == OCFLDeposit.objectID(of: original))
        #expect(try RemoteRoot.objectPaths(remote.store()).count == 1)

        // The other way round: a remote whose object the old copy named.
        let second = directory.path("second")
        let secondStore = FolderRemoteStore(root: URL(fileURLWithPath: second))
        try remote.succeed(["push", "old.dkproj", second])
        #expect(
            try RemoteRoot.objectPaths(secondStore) == [OCFLStorageRoot.objectPath(for: OCFLDeposit.objectID(of: old))]
        )
        #expect(try remote.succeed(["pull", "b.dkproj", second]).output.hasPrefix("fast-forward b.dkproj to "))
        try remote.succeed(["set", "b.dkproj", "name", "six"])
        try remote.succeed(["push", "b.dkproj", second])
        #expect(try RemoteRoot.objectPaths(secondStore).count == 1)
        try remote.succeed(["clone", second, "-o", "e.dkproj"])
        #expect(try manifest("e.dkproj", in: directory).head == manifest("b.dkproj", in: directory).head)
    }

    /// Two copies that both changed since the version they last shared, which one of them
    /// pruned, have nothing to merge against: the pull says so, naming the remote (not the
    /// temporary copy it fetched), and leaves the bundle as it was. They are not "two
    /// projects".
    @Test(.enabled(if: RemoteCommandTests.enabled, RemoteCommandTests.skipReason))
    func aPullWhoseMergeBaseWasPrunedSaysSoAndNamesTheRemote() throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(.folder, in: directory)
        try remote.succeed(["new", "b.dkproj", "--name", "P"])
        try remote.succeed(["set", "b.dkproj", "name", "two"])
        try remote.succeed(["push", "b.dkproj", remote.address])
        try remote.succeed(["clone", remote.address, "-o", "c.dkproj"])
        try remote.succeed(["set", "c.dkproj", "summary", "from c"])
        try remote.succeed(["push", "c.dkproj", remote.address])
        try remote.succeed(["set", "b.dkproj", "name", "three"])
        try remote.succeed(["set", "b.dkproj", "name", "four"])
        try remote.succeed(["prune", "b.dkproj", "--keep", "1"])
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("b.dkproj"))

        let pulled = try remote.docctl(["pull", "b.dkproj", remote.address])
        #expect(
            pulled.status == 65
                && pulled.standardError == """
                    error: b.dkproj: and \(remote.address) have both changed since the last version they share, which this copy has pruned (its oldest version is 4), so there is nothing to merge against; nothing was pulled

                    """,
            "\(pulled.standardError)")
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("b.dkproj")) == before)
        #expect(Fixtures.listing(directory.url).filter { $0.hasPrefix(".") }.isEmpty, "no temporary copy left")
    }
}
