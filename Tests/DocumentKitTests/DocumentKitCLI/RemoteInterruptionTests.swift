import Foundation
import Testing

@testable import DocumentKit

/// Pushes killed after each of their remote writes in turn (`DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES`),
/// and remotes damaged the ways killed pushes of earlier releases left them: ocfl-py judges
/// the remote after each kill and after the next push, which must repair it.
@Suite struct RemoteInterruptionTests {
    typealias Remote = RemoteCommandTests.Remote

    /// ocfl-py on the remote: a folder as it is, a bucket copied into a folder first. The
    /// error lines, and whether it said VALID (``problems(in:root:)``).
    static func validate(_ remote: Remote, into directory: TemporaryDirectory, as name: String) throws -> (
        errors: [String], valid: Bool, output: String
    ) {
        var root = remote.address
        if remote.server != nil {
            let store = try remote.store()
            root = directory.path(name)
            for key in try store.list(prefix: "").keys {
                let file = URL(fileURLWithPath: root).appendingPathComponent(key)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try store.download(key, to: file)
            }
        }
        return try validateRoot(root)
    }

    /// ocfl-py on the storage root in the folder `root`, as ``validate(_:into:as:)`` judges it.
    static func validateRoot(_ root: String) throws -> (errors: [String], valid: Bool, output: String) {
        let script = Fixtures.repository.appendingPathComponent("Tests/OCFLValidator/ocfl_validate_0004.py").path
        let result = try OCFLDepositTests.python.run([script, root])
        let lines = result.output.split(separator: "\n").map(String.init)
        return (
            problems(in: lines), result.status == 0 && lines.last?.contains("is VALID (1 of 1 objects valid)") == true,
            result.output
        )
    }

    /// The lines of ocfl-py's report that a push must never cause: errors and layout
    /// problems. (W010, a version without its own inventory, is how the history layout is
    /// meant: the object's inventory is its one copy, FORMAT.md §10.)
    static func problems(in lines: [String]) -> [String] {
        lines.filter { $0.contains("[E") || $0.contains("[LAYOUT]") }
    }

    /// What a push does after its compare-and-swap and a kill there leaves undone: on a
    /// folder, removing its staging folder (which holds the files it sent); on S3, writing
    /// the object's inventory sidecar. Empty when nothing is left.
    static func untidied(_ remote: Remote, object: String) throws -> [String] {
        let store = try remote.store()
        var left: [String] = []
        if remote.server == nil {
            let staging = URL(fileURLWithPath: remote.address).appendingPathComponent("extensions/documentkit-push")
            left += Fixtures.listing(staging).filter { !$0.hasSuffix(".lock") }
        }
        let inventory = try #require(try store.read("\(object)/inventory.json"))
        if try store.read("\(object)/inventory.json.sha512")?.data != OCFLInventory.sidecar(for: inventory.data) {
            left.append("\(object)/inventory.json.sha512, stale")
        }
        return left
    }

    /// A temporary folder holding garden.dkproj, pushed to a new remote of `kind`.
    static func gardenPushed(to kind: RemoteCommandTests.Kind) throws -> (TemporaryDirectory, Remote) {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try remote.succeed(["push", "garden.dkproj", remote.address])
        return (directory, remote)
    }

    static let enabled = RemoteCommandTests.enabled && OCFLDepositTests.validatorAvailable

    @Test(
        .enabled(if: enabled, "needs moto_server and ocfl-py: run scripts/setup.sh"),
        arguments: RemoteCommandTests.Kind.allCases)
    func aPushKilledAfterAnyOfItsWritesLeavesAValidRemoteThatTheNextPushCompletes(_ kind: RemoteCommandTests.Kind)
        throws
    {
        let (directory, remote) = try Self.gardenPushed(to: kind)
        let manifest = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("garden.dkproj")).manifest
        let object = OCFLStorageRoot.objectPath(for: OCFLDeposit.objectID(of: manifest))

        var killed = 0
        var killedAfterExchange = 0
        for writes in 0..<40 {
            // Two new versions each round: a push of two versions, as a user's after a day's work.
            try remote.succeed(["set", "garden.dkproj", "name", "Round \(writes)"])
            try remote.succeed(["set", "garden.dkproj", "tasks[0].title", "Task of round \(writes)"])
            let push = try remote.docctl(
                ["push", "garden.dkproj", remote.address],
                environment: ["DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES": "\(writes)"])
            if push.status == 0 { break }
            #expect(push.status == SIGKILL, "killed after \(writes) writes: \(push.standardError)")
            killed += 1
            let afterKill = try Self.validate(remote, into: directory, as: "after-kill-\(writes)")
            // A folder is replaced in one step: valid at every instant. S3 has no such step:
            // a validator may find the push half done until the next push finishes it.
            if kind == .folder {
                #expect(
                    afterKill.valid && afterKill.errors.isEmpty, "killed after \(writes) writes: \(afterKill.output)")
            }
            // Killed after its head moved (its compare-and-swap), the push has nothing left
            // to send: what it had left undone, this push does.
            let untidied = try Self.untidied(remote, object: object)
            let again = try remote.succeed(["push", "garden.dkproj", remote.address])
            if again.output.contains(" is up to date with garden.dkproj") {
                killedAfterExchange += 1
                #expect(!untidied.isEmpty, "killed after its exchange, with nothing left undone?")
                #expect(try Self.untidied(remote, object: object).isEmpty, "repaired: \(untidied)")
            } else {
                #expect(again.output.hasPrefix("pushed garden.dkproj to \(remote.address): "), "\(again.output)")
            }
            let repaired = try Self.validate(remote, into: directory, as: "repaired-\(writes)")
            #expect(
                repaired.valid && repaired.errors.isEmpty,
                "pushed again after a kill after \(writes) writes: \(repaired.output)")
        }
        #expect(killed >= 5, "the push was killed at each of its writes")
        #expect(killedAfterExchange == 1, "one kill came after the exchange, before the tidying that follows it")
        let head = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("garden.dkproj")).manifest
        #expect(
            try remote.succeed(["push", "garden.dkproj", remote.address]).output.contains(
                "is up to date with garden.dkproj"))
        try remote.succeed(["clone", remote.address, "-o", "copy.dkproj"])
        #expect(
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent("copy.dkproj")).manifest.versions.map(
                \.id) == head.versions.map(\.id))
    }

    @Test(
        .enabled(if: enabled, "needs moto_server and ocfl-py: run scripts/setup.sh"),
        arguments: RemoteCommandTests.Kind.allCases)
    func aPushThatIsUpToDateRepairsWhatKilledPushesLeft(_ kind: RemoteCommandTests.Kind) throws {
        let (directory, remote) = try Self.gardenPushed(to: kind)
        for round in 1...3 {
            try remote.succeed(["set", "garden.dkproj", "name", "Round \(round)"])
            try remote.succeed(["push", "garden.dkproj", remote.address])
        }
        let store = try remote.store()
        let manifest = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("garden.dkproj")).manifest
        let object = OCFLStorageRoot.objectPath(for: OCFLDeposit.objectID(of: manifest))
        // What killed pushes leave: the object's sidecar missing; a copy of the inventory in a
        // version folder (as pushes of the release before kept the head's); a loser's file
        // in a version folder.
        try store.delete("\(object)/inventory.json.sha512")
        let copy = try store.readFile("\(object)/inventory.json")
        try store.write("\(object)/v4/inventory.json", copy)
        try store.write("\(object)/v2/inventory.json", copy)
        try store.write("\(object)/v2/inventory.json.sha512", OCFLInventory.sidecar(for: copy))
        try store.write("\(object)/v3/content/0123456789abcdef/history/000000000001-000000000010", Data("{}".utf8))
        if kind == .folder {
            // And on a folder: an empty folder of a loser's, and a killed write's temporary file.
            try FileManager.default.createDirectory(
                atPath: "\(remote.address)/\(object)/v4/content/fedcba9876543210/history",
                withIntermediateDirectories: true)
            try Data("partial".utf8).write(
                to: URL(fileURLWithPath: "\(remote.address)/\(object)/v2/.inventory.json.dk-0a1b2c3d.tmp"))
        }
        let damaged = try Self.validate(remote, into: directory, as: "damaged")
        #expect(!damaged.valid, "\(damaged.output)")

        let push = try remote.succeed(["push", "garden.dkproj", remote.address])
        #expect(
            push.output
                == """
                \(remote.address) is up to date with garden.dkproj (11 versions, head \
                \(manifest.head.prefix(12)))\n
                """
        )
        let repaired = try Self.validate(remote, into: directory, as: "repaired")
        #expect(repaired.valid && repaired.errors.isEmpty, "\(repaired.output)")
        #expect(
            try store.size("\(object)/v2/inventory.json") == nil && store.size("\(object)/v4/inventory.json") == nil)
    }

    @Test(
        .enabled(if: enabled, "needs moto_server and ocfl-py: run scripts/setup.sh"),
        arguments: RemoteCommandTests.Kind.allCases)
    func theLoserOfARaceLeavesNothingInTheWinnersVersion(_ kind: RemoteCommandTests.Kind) throws {
        let (directory, remote) = try Self.gardenPushed(to: kind)
        try FileManager.default.copyItem(atPath: directory.path("garden.dkproj"), toPath: directory.path("b.dkproj"))
        for round in 1...3 {
            try remote.succeed(["set", "garden.dkproj", "name", "A's round \(round)"])
            try remote.succeed(["set", "b.dkproj", "tasks[0].title", "B's round \(round)"])
            let pushers = try ["garden.dkproj", "b.dkproj"].map {
                try DocctlProcess(["push", $0, remote.address], in: directory.url, environment: remote.environment)
            }
            let outcomes = pushers.map { $0.wait() }
            #expect(
                outcomes.contains { $0.status == 0 } && outcomes.allSatisfy { $0.status == 0 || $0.status == 75 },
                "\(outcomes.map(\.standardError))")
            let raced = try Self.validate(remote, into: directory, as: "raced-\(round)")
            #expect(raced.valid && raced.errors.isEmpty, "round \(round): \(raced.output)")
            // Both copies take each other's versions, for the next round.
            try remote.succeed(["pull", "garden.dkproj", remote.address])
            try remote.succeed(["push", "garden.dkproj", remote.address])
            try remote.succeed(["pull", "b.dkproj", remote.address])
        }
    }
}
