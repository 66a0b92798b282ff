import DocumentKitCLI
import Foundation
import Testing

@testable import DocumentKit

/// Issue 25, item 5: in format 3 a save, `cat` (of the head and of an old version),
/// `log -n 1`, `info`, `pull` (a fast-forward and a merge of one version) and a push of one
/// version to a folder remote and its pull from there read and write the same at 2,000
/// versions as at 10, within a constant, so
/// that no change brings back a cost that grows with the history unnoticed. Counted with
/// docctl's work meter (bytes read, stored, hashed, parsed and encoded), not timed.
@Suite(.serialized) struct HistoryWorkTests {
    /// What each command does, summed over `saves` one-title saves and once for each reader.
    static func work(versions: Int, saves: Int) throws -> [String: [String: Int]] {
        let directory = try TemporaryDirectory("history-work-\(versions)")
        let url = directory.url.appendingPathComponent("h.dkproj")
        try FormatThreeFixtures.project(at: url, saves: versions - 1)
        var work: [String: [String: Int]] = [:]
        for save in 0..<saves {
            let counts = try WorkScalingTests.meteredRun(
                ["set", "h.dkproj", "tasks[\(save % 50)].title", "Metered \(save)"], in: directory)
            work["save", default: [:]].merge(counts) { $0 + $1 }
        }
        // A copy that saved one version more, and a copy that saved one of its own: a pull
        // of each (a fast-forward and a merge), into copies of the bundle as it now is.
        for (name, edit) in [("pull", "Pulled"), ("merge", "Merged")] {
            let ahead = directory.url.appendingPathComponent("\(name)-theirs.dkproj")
            let behind = directory.url.appendingPathComponent("\(name)-ours.dkproj")
            try FileManager.default.copyItem(at: url, to: ahead)
            try FileManager.default.copyItem(at: url, to: behind)
            try FormatThreeFixtures.addSaves(1, to: ahead, from: 7)
            if name == "merge" {
                _ = try BundleEdits.set(
                    .string(edit), at: try JSONPath(parsing: "name"), in: behind, metadata: FormatThreeFixtures.metadata
                )
            }
            work[name] = try WorkScalingTests.meteredRun(
                ["pull", behind.lastPathComponent, ahead.lastPathComponent], in: directory)
        }
        // A folder remote holding the history, and a clone of it: a push of one version more,
        // then a pull of it into the clone.
        for arguments in [["push", "h.dkproj", "remote"], ["clone", "remote", "-o", "fetched.dkproj"]] {
            let result = try Run.docctl(arguments, in: directory.url)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        try FormatThreeFixtures.addSaves(1, to: url, from: 9)
        work["push"] = try WorkScalingTests.meteredRun(["push", "h.dkproj", "remote"], in: directory)
        work["remote pull"] = try WorkScalingTests.meteredRun(["pull", "fetched.dkproj", "remote"], in: directory)
        for (name, arguments) in [
            ("cat", ["cat", "h.dkproj"]), ("log", ["log", "h.dkproj", "-n", "1"]),
            ("old", ["cat", "h.dkproj", "--version", "2"]), ("info", ["info", "h.dkproj"])
        ] {
            work[name] = try WorkScalingTests.meteredRun(arguments, in: directory)
        }
        return work
    }

    @Test func commandsCostTheSameAtTwoThousandVersionsAsAtTen() throws {
        let saves = 16
        let few = try Self.work(versions: 10, saves: saves)
        let many = try Self.work(versions: 2_000, saves: saves)
        for (command, counts) in many.sorted(by: { $0.key < $1.key }) {
            // A reader reads a segment's trailer, a few index rows and a block more.
            // Saves merge segments, each merge copying at most `mergeLimit`, and rewrite the
            // bundle past a third of superseded bytes: over 16 saves, at most twice the limit
            // more (a save that rewrote every version's record would copy 6 MB here).
            // A pull appends a segment as a save does, and may merge it with the newest
            // ones: reading and writing up to the limit more, once (a pull that listed both
            // histories hashed, parsed and encoded 3 MB more here, and read 600 KB).
            // A push adds a segment as a save does, merged with the remote's newest: it
            // fetches and stores up to the limit more, once. It walks the bundle back to the
            // base of its document's delta, 16 versions at most, reading their trees (a push
            // that listed the history parsed 800 KB more here).
            let remote = command == "push" || command == "remote pull"
            for (kind, count) in counts {
                let merges =
                    ["pull", "merge"].contains(command) && (kind == "read-bytes" || kind == "stored-bytes")
                    || remote && (kind == "fetched-bytes" || kind == "stored-bytes")
                let slack =
                    command == "save"
                    ? 2 * Int(HistoryPolicy.mergeLimit)
                    : merges ? Int(HistoryPolicy.mergeLimit) : remote ? 131_072 : 16_384
                let base = few[command]?[kind] ?? 0
                #expect(
                    Double(count) <= 1.25 * Double(base) + Double(slack),
                    "\(command) \(kind): \(base) at 10 versions, \(count) at 2,000")
            }
        }
        #expect((many["save"]?["stored-bytes"] ?? 0) > 16 * 9_000, "the meter sees each save write its document")
    }
}
