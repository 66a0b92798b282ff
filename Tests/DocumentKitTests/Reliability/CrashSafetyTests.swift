import Foundation
import Testing

@testable import DocumentKit

/// A save, attach, prune, migration, restore, `edit`, `pull`, export, pack, import or
/// archive killed at any moment loses nothing: the bundle validates and holds the old or
/// the new state, an export's, a pack's or an import's output is complete or absent (or
/// the file it replaces), an archive's OCFL root is valid and holds the versions it held
/// or all of them, and what the killed run left is removed by the next run that succeeds.
///
/// The suite runs a short ``CrashHarness`` (30 trials, about a minute); `scripts/crash-harness.sh
/// --trials 400` runs the long one (`DOCUMENTKIT_CRASH_TRIALS`, `DOCUMENTKIT_CRASH_SEED`).
@Suite struct CrashSafetyTests {
    /// From format-2 bundles, whose first save by docctl upgrades each to format 3 (killed
    /// at random like any other), and from format-3 bundles, whose saves append segments
    /// and whose prunes rewrite the history into one.
    @Test(arguments: [2, 3]) func killingDocctlAtRandomMomentsLosesNothing(formatVersion: Int) throws {
        let seed = CrashHarness.seed
        let harness = try CrashHarness(seed: seed, formatVersion: formatVersion)
        let report = harness.run(trials: CrashHarness.trials(default: 30))
        // The figures, for the script and for whoever reads the log.
        print(report)
        for failure in report.failures { Issue.record(Comment(rawValue: failure)) }
        #expect(report.trials > 0)
        if report.trials >= 30 {
            #expect(report.killedMidSave > 0, "some kills landed while a save was writing")
        }
    }
}
