import Foundation
import Testing

@testable import DocumentKit

/// Issue 24, item 8: one OCFL writer, valid at every instant. `docctl archive` is a push
/// to a folder root; SIGKILLed at any moment, a push or an archive into a folder leaves a
/// root that ocfl-py accepts (or no root yet: a first push makes the root appear whole),
/// and the command run again completes it. The moments are drawn from a seeded generator
/// (the seed is in every failure message), and then every write in turn is a kill point
/// (`DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES`), the root's creation among them.
@Suite struct RemoteRandomKillTests {
    static let seed: UInt64 = 0x2024_0008

    /// ocfl-py's verdict on the folder root at `root`: valid, or nothing there yet (no
    /// folder, or an empty one: a root that never appeared half made).
    static func judge(_ root: URL) throws -> (valid: Bool, output: String) {
        let names = Fixtures.listing(root)
        guard !names.isEmpty else { return (true, "no root yet") }
        let script = Fixtures.repository.appendingPathComponent("Tests/OCFLValidator/ocfl_validate_0004.py").path
        let result = try OCFLDepositTests.python.run([script, root.path])
        let lines = result.output.split(separator: "\n").map(String.init)
        let errors = RemoteInterruptionTests.problems(in: lines)
        return (
            result.status == 0 && errors.isEmpty && lines.last?.contains("is VALID") == true,
            "\(names): \(result.output)"
        )
    }

    /// A garden with a 2 MiB attachment, so that each run has moments to be killed in.
    private func garden(in directory: TemporaryDirectory) throws {
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        _ = try Fixtures.write(Fixtures.noise(2 << 20), to: "photo.bin", in: directory.url)
        try Run.succeeding(
            ["attach", "garden.dkproj", "photo.bin", "--as", "tasks[0].attachments[+]"], in: directory.url)
    }

    /// Two new versions, as a day's work brings.
    private func edit(_ round: Int, in directory: TemporaryDirectory) throws {
        try Run.succeeding(["set", "garden.dkproj", "name", "Round \(round)"], in: directory.url)
        try Run.succeeding(["set", "garden.dkproj", "tasks[0].title", "Task of round \(round)"], in: directory.url)
    }

    @Test(
        .enabled(if: OCFLDepositTests.validatorAvailable, OCFLDepositTests.skipReason), arguments: ["archive", "push"])
    func killedAtSeededRandomMomentsTheFolderRootStaysValid(_ command: String) throws {
        let directory = try TemporaryDirectory()
        try garden(in: directory)
        let root = directory.url.appendingPathComponent("root")
        let arguments = [command, "garden.dkproj", "root"]
        // How long a whole run takes here, to draw the moments from (no assertion depends on it).
        try FileManager.default.copyItem(
            atPath: directory.path("garden.dkproj"), toPath: directory.path("probe.dkproj"))
        let clock = ContinuousClock()
        let whole = try clock.measure {
            _ = try Run.succeeding([command, "probe.dkproj", "probe-root"], in: directory.url)
        }
        let span = max(
            Int(whole.components.seconds) * 1_000_000 + Int(whole.components.attoseconds / 1_000_000_000_000), 20_000)

        var random = SeededRandom(seed: Self.seed)
        var (kills, interrupted) = (0, 0)
        for round in 0..<4 {
            // Round 0 is the first run into no root at all.
            if round > 0 { try edit(round, in: directory) }
            for _ in 0..<5 {
                let delay = Int.random(in: 0..<span, using: &random)
                let process = try DocctlProcess(arguments, in: directory.url)
                usleep(useconds_t(delay))
                process.send(SIGKILL)
                let outcome = process.wait()
                kills += 1
                if outcome.signaled {
                    interrupted += 1
                } else {
                    #expect(outcome.status == 0, "seed \(Self.seed), round \(round): \(outcome.standardError)")
                }
                let verdict = try Self.judge(root)
                #expect(
                    verdict.valid,
                    "seed \(Self.seed), round \(round), \(command) killed after \(delay) µs: \(verdict.output)")
            }
            try Run.succeeding(arguments, in: directory.url)
            let verdict = try Self.judge(root)
            #expect(
                verdict.valid && verdict.output != "no root yet",
                "seed \(Self.seed), round \(round), completed: \(verdict.output)")
        }
        #expect(
            kills == 20 && interrupted > 0, "seed \(Self.seed): \(interrupted) of \(kills) kills landed before the end")
        // Every version is there once, as a clone shows.
        try Run.succeeding(["clone", "root", "-o", "copy.dkproj"], in: directory.url)
        let ids = { (name: String) in
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent(name)).manifest.versions.map(\.id)
        }
        #expect(try ids("copy.dkproj") == ids("garden.dkproj"))
        #expect(Fixtures.listing(directory.url).filter { $0.hasPrefix(".") } == [], "no temporary left beside the root")
    }

    @Test(.enabled(if: OCFLDepositTests.validatorAvailable, OCFLDepositTests.skipReason))
    func anArchiveKilledAfterAnyOfItsWritesLeavesAValidRootThatTheNextArchiveCompletes() throws {
        let directory = try TemporaryDirectory()
        try garden(in: directory)
        let root = directory.url.appendingPathComponent("root")
        var killed = 0
        // Into no root, then onto an object, each write in turn.
        for round in 0..<2 {
            if round > 0 { try edit(round, in: directory) }
            for writes in 0..<60 {
                let archive = try Run.docctl(
                    ["archive", "garden.dkproj", "root"], in: directory.url,
                    environment: ["DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES": "\(writes)"])
                let verdict = try Self.judge(root)
                #expect(verdict.valid, "round \(round), archive killed after \(writes) writes: \(verdict.output)")
                if archive.status == 0 { break }
                #expect(
                    archive.status == SIGKILL, "round \(round), killed after \(writes) writes: \(archive.standardError)"
                )
                killed += 1
            }
        }
        #expect(killed >= 6, "the archive was killed at each of its writes")
        let done = try Run.succeeding(["archive", "garden.dkproj", "root"], in: directory.url)
        #expect(done.output.contains(", no new versions (it has "), "\(done.output)")
        #expect(Fixtures.listing(root.appendingPathComponent("extensions")) == [OCFLStorageRoot.layoutName])
    }

    /// A push killed while it held the object's lock (a moment between its compare and its
    /// exchange) leaves the lock: the next push on this machine finds its process ended and
    /// removes it, rather than waiting and failing.
    @Test func aLockWhoseProcessEndedIsRemovedByTheNextPush() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Run.succeeding(["push", "garden.dkproj", "root"], in: directory.url)
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let manifest = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("garden.dkproj")).manifest
        let objectFolder = (OCFLStorageRoot.objectPath(for: OCFLDeposit.objectID(of: manifest)) as NSString)
            .lastPathComponent
        let lock = directory.url.appendingPathComponent("root/\(FolderRemoteStore.pushFolder)/\(objectFolder).lock")
        try FileManager.default.createDirectory(at: lock.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("\(ended.processIdentifier) \(ProcessInfo.processInfo.hostName)\n".utf8).write(to: lock)

        try Run.succeeding(["set", "garden.dkproj", "name", "After the kill"], in: directory.url)
        let pushed = try Run.succeeding(["push", "garden.dkproj", "root"], in: directory.url)
        #expect(pushed.output.contains(": 1 new version in v2, "), "\(pushed.output)")
        #expect(
            !FileManager.default.fileExists(atPath: directory.path("root/\(FolderRemoteStore.pushFolder)")),
            "the lock and the push folder are gone")
    }
}
