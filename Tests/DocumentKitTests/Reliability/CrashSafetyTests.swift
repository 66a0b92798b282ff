import Foundation
import Testing
@testable import DocumentKit

/// A save, attach, prune, migration, restore or export killed at any moment loses nothing:
/// the bundle validates and holds the old or the new state, an export's output is complete
/// or absent, and what the killed run left is removed by the next run that succeeds.
///
/// The suite runs a short ``CrashHarness`` (30 trials, about a minute); `scripts/crash-harness.sh
/// --trials 400` runs the long one (`DOCUMENTKIT_CRASH_TRIALS`, `DOCUMENTKIT_CRASH_SEED`).
@Suite struct CrashSafetyTests {
    @Test func killingDocctlAtRandomMomentsLosesNothing() throws {
        let harness = try CrashHarness(seed: CrashHarness.seed)
        let report = harness.run(trials: CrashHarness.trials(default: 30))
        // The figures, for the script and for whoever reads the log.
        print(report)
        for failure in report.failures { Issue.record(Comment(rawValue: failure)) }
        #expect(report.trials > 0)
        if report.trials >= 30 {
            #expect(report.killedMidSave > 0, "some kills landed while a save was writing")
        }
    }

    /// Found by the harness: an append killed after writing its end record (during its
    /// last flush) but before removing its journal is complete. Readers used to trust the
    /// journal and show the version before it, while the next save kept it: a reader and a
    /// writer disagreed on the head. Now both read the whole file.
    @Test func anAppendKilledBeforeRemovingItsJournalIsReadAsSaved() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("p.dkproj")
        try Fixtures.write(Fixtures.noise(1_000_000), to: "big.bin", in: directory.url)
        try Run.docctl(["new", "p.dkproj", "--name", "old"], in: directory.url)
        try Run.docctl(["attach", "p.dkproj", "big.bin"], in: directory.url)
        let before = try Data(contentsOf: url).count
        try Run.docctl(["set", "p.dkproj", "name", "new"], in: directory.url)
        #expect(try Data(contentsOf: url).count > before, "appended in place")
        // What the killed save left: its journal, naming the length before the append.
        let fd = open(url.path, O_RDWR)
        defer { close(fd) }
        _ = try AppendJournal.begin(bundlePath: url.path, fd: fd, length: UInt64(before))

        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "new\n")
        let validate = try Run.docctl(["validate", "p.dkproj"], in: directory.url)
        #expect(validate.status == 0 && !validate.output.contains("unfinished-save"), "\(validate.output)")
        try Run.docctl(["set", "p.dkproj", "isArchived", "true"], in: directory.url)
        let bundle = try DocumentBundle(contentsOf: url)
        let project = try bundle.read(Project.self)
        #expect(bundle.manifest.versions.count == 4 && project.name == "new" && project.isArchived)
        #expect(Fixtures.listing(directory.url) == ["big.bin", "p.dkproj"], "the journal is gone")
    }
}
