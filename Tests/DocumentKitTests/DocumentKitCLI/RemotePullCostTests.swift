import Foundation
import Testing

@testable import DocumentKit

/// Issue 24, item 6: a pull costs the change, not the project. A project holding an 8 MiB
/// blob gets a one-field edit; pulling it, from a remote or from another bundle file,
/// fetches, hashes, reads and writes a document and a few trees, counted by docctl's
/// `WorkMeter` (bytes, not times, so the machine's load cannot move them), under a bound
/// far below the blob's size, while a clone of the same project fetches the blob whole.
@Suite struct RemotePullCostTests {
    typealias Remote = RemoteCommandTests.Remote

    static let blobBytes = 8 << 20
    /// What a one-field pull may fetch, hash, read or write: the document (40 tasks, a few
    /// KiB), its trees, the record; a sixteenth of the blob.
    static let bound = 512 << 10

    /// `b.dkproj`, a project with one 8 MiB blob (bench/make_corpus.py, imported), pushed
    /// to `remote`, and `c.dkproj`, its clone; then b's one-field edit, pushed.
    private func editedProject(
        in directory: TemporaryDirectory, remote: Remote, formatVersion: Int = BundleManifest.currentFormatVersion
    ) throws {
        let script = Fixtures.repository.appendingPathComponent("bench/make_corpus.py").path
        let made = try ExternalTool.python3.run([
            script, directory.path("source"), "--big-mib", "\(Self.blobBytes >> 20)", "--blobs", "0", "--tasks", "40"
        ])
        try #require(made.status == 0, "\(made.standardError)")
        try remote.succeed(["import", "source", "-o", "b.dkproj", "--format-version", "\(formatVersion)"])
        try remote.succeed(["push", "b.dkproj", remote.address])
        try remote.succeed(["clone", remote.address, "-o", "c.dkproj"])
        try FileManager.default.copyItem(atPath: directory.path("b.dkproj"), toPath: directory.path("stale.dkproj"))
        try remote.succeed(["set", "b.dkproj", "name", "Edited"])
        try remote.succeed(["push", "b.dkproj", remote.address])
    }

    private func expectTheChangesCost(
        _ counts: [String: Int], of what: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for kind in ["fetched-bytes", "hashed-bytes", "read-bytes", "stored-bytes"] {
            #expect(
                (counts[kind] ?? Int.max) < Self.bound,
                "\(what): \(kind) \(counts[kind] ?? -1), bound \(Self.bound): \(counts)",
                sourceLocation: sourceLocation)
        }
    }

    @Test(
        .enabled(if: RemoteCommandTests.enabled, RemoteCommandTests.skipReason),
        arguments: RemoteCommandTests.Kind.allCases)
    func aOneFieldPullFromARemoteFetchesAndWritesOnlyTheChange(_ kind: RemoteCommandTests.Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        try editedProject(in: directory, remote: remote)

        let pull = try WorkScalingTests.meteredRun(
            ["pull", "c.dkproj", remote.address], in: directory, environment: remote.environment)
        expectTheChangesCost(pull, of: "pull from the remote")
        let pulled = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("c.dkproj"))
        let edited = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("b.dkproj"))
        #expect(try pulled.manifest.versions.map(\.id) == edited.manifest.versions.map(\.id))
        #expect(try pulled.documentData(of: pulled.headVersion) == edited.documentData(of: edited.headVersion))
        try remote.succeed(["validate", "--deep", "c.dkproj"])
        // The temporary copy is gone.
        #expect(
            Fixtures.listing(directory.url).filter { $0.hasPrefix(".") } == [], "\(Fixtures.listing(directory.url))")

        // The meter sees a blob's bytes when they move: a clone fetches and stores it.
        let clone = try WorkScalingTests.meteredRun(
            ["clone", remote.address, "-o", "whole.dkproj"], in: directory, environment: remote.environment)
        #expect(
            (clone["fetched-bytes"] ?? 0) >= Self.blobBytes && (clone["stored-bytes"] ?? 0) >= Self.blobBytes,
            "\(clone)")
    }

    /// A pull from another bundle file checks what it brings in, not the whole other copy,
    /// and appends it: in format 3 too, whose pull adds a segment.
    @Test(arguments: [2, 3]) func aOneFieldPullFromAnotherBundleChecksOnlyWhatItBringsIn(formatVersion: Int) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(.folder, in: directory)
        try editedProject(in: directory, remote: remote, formatVersion: formatVersion)
        // A format-2 copy stays in format 2 when the setting says so (else the pull would
        // upgrade it, rewriting the blob).
        let environment = ["XDG_CONFIG_HOME": directory.path("config")]
        try #require(
            try Run.docctl(["config", "set", "format-version", "\(formatVersion)"], environment: environment).status
                == 0)
        let pull = try WorkScalingTests.meteredRun(
            ["pull", "stale.dkproj", "b.dkproj"], in: directory, environment: environment)
        expectTheChangesCost(pull, of: "pull from b.dkproj")
        #expect(
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent("stale.dkproj")).formatVersion
                == formatVersion)
        #expect(
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent("stale.dkproj")).manifest.head
                == DocumentBundle(contentsOf: directory.url.appendingPathComponent("b.dkproj")).manifest.head)
        try remote.succeed(["validate", "--deep", "stale.dkproj"])
    }

    /// What it brings in is checked: a new version's object damaged in the other copy is
    /// refused, nothing written; damage in an object both copies hold is not this pull's
    /// to find (`validate --deep` finds it).
    /// In format 2, whose objects are entries of their own (in format 3 a new version's
    /// small objects share its segment: PullCommandTests.twoProjectsAreRefusedAndADamagedCopyIsNotTakenFrom).
    @Test func aDamagedNewObjectIsRefusedAndAnOldOneIsNotRead() throws {
        let directory = try TemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": directory.path("config")]
        try Run.succeeding(["config", "set", "format-version", "2"], in: directory.url, environment: environment)
        try Fixtures.twoCopies(in: directory.url, environment: environment)
        let a = directory.url.appendingPathComponent("a.dkproj")
        try FileManager.default.copyItem(at: a, to: directory.url.appendingPathComponent("first.dkproj"))
        let before = try Fixtures.digest(of: a)
        let b = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("b.dkproj"))
        let old = try #require(try b.tree(of: b.manifest.versions[0])["document.json"]?.knownDigest)
        try damage(old, in: b)
        let pulled = try Run.succeeding(["pull", "a.dkproj", "b.dkproj"], in: directory.url, environment: environment)
        #expect(pulled.output.hasPrefix("fast-forward a.dkproj to "), "\(pulled.output)")

        try FileManager.default.removeItem(at: a)
        try FileManager.default.copyItem(at: directory.url.appendingPathComponent("first.dkproj"), to: a)
        let new = try #require(try b.tree(of: b.headVersion)["document.json"]?.knownDigest)
        try damage(new, in: b)
        let refused = try Run.docctl(["pull", "a.dkproj", "b.dkproj"], in: directory.url, environment: environment)
        expectFailure(refused, status: 65, containing: "error: b.dkproj: cannot be pulled from: object \(new.short): ")
        #expect(try Fixtures.digest(of: a) == before)
    }

    /// Flips a byte in the middle of the stored object `digest` of `bundle`.
    private func damage(_ digest: ObjectDigest, in bundle: DocumentBundle) throws {
        let entry = try #require(bundle.zip.entry(named: digest.entryName))
        let handle = try FileHandle(forUpdating: bundle.url)
        try handle.seek(toOffset: entry.dataOffset + entry.size / 2)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: entry.dataOffset + entry.size / 2)
        try handle.write(contentsOf: Data([byte ^ 0x20]))
        try handle.close()
    }
}
