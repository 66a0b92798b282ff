import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// A pull between format-3 copies plans by walking both histories back from their heads,
/// as far as they differ (`PullPlan+Walk.swift`); bundles of older formats, and what the
/// walk cannot decide, plan from both copies' lists of every version. The two must agree:
/// three copies of a project save, pull from each other and prune in a seeded random
/// order (seeds 105 and 112 once found the walk bringing back a pruned version, and the
/// listing pulling versions behind a pruned id), and after each step every pull between two
/// of them is planned both ways.
@Suite struct PullPlanWalkTests {
    /// What a plan decides, for comparing two.
    struct Decision: Equatable, CustomStringConvertible {
        var kind: String
        var missing: [VersionID]
        var prunedParents: [VersionID]
        var base: VersionID?
        var ahead: Int?

        init(_ plan: PullPlan) {
            kind = "\(plan.kind)"
            missing = plan.missing.map(\.id)
            prunedParents = plan.prunedParents
            base = plan.base?.version.id
            ahead = plan.kind == .upToDate ? plan.ahead : nil
        }

        var description: String {
            """
            \(kind), missing \(missing.map { $0.prefix(8) }), pruned \(prunedParents.map { $0.prefix(8) }), base \
            \(base?.prefix(8) ?? "none"), ahead \(ahead.map(String.init) ?? "-")
            """
        }
    }

    @Test(arguments: [UInt64(7), 19, 105, 112])
    func theWalkPlansWhatTheListingsPlan(seed: UInt64) throws {
        let directory = try TemporaryDirectory("pull-walk-\(seed)")
        var random = SeededRandom(seed: seed)
        let copies = (0..<3).map { directory.url.appendingPathComponent("copy\($0).dkproj") }
        _ = try FormatThreeFixtures.project(at: copies[0], taskCount: 8, saves: 3)
        for copy in copies.dropFirst() { try FileManager.default.copyItem(at: copies[0], to: copy) }
        var walked = 0
        for step in 0..<60 {
            let (one, other) = (Int.random(in: 0..<3, using: &random), Int.random(in: 0..<3, using: &random))
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let path = try JSONPath(parsing: "tasks[\(Int.random(in: 0..<8, using: &random))].title")
                _ = try BundleEdits.set(
                    .string("Step \(step)"), at: path, in: copies[one], metadata: FormatThreeFixtures.metadata)
            case 5..<9 where one != other:
                do {
                    _ = try BundlePuller.pull(
                        into: copies[one], from: copies[other], metadata: FormatThreeFixtures.metadata,
                        resolution: BundlePuller.Resolution(all: .theirs))
                } catch let error as DocumentKitError where error.code == .invalidDocument {
                    // Copies that pruned what joins them cannot be pulled: the plans below
                    // must both refuse.
                }
            case 9:
                _ = try BundlePruner.prune(copies[one], keep: Int.random(in: 2..<12, using: &random))
            default:
                continue
            }
            for ours in 0..<3 {
                for theirs in 0..<3 where ours != theirs {
                    let (our, their) = (
                        try DocumentBundle(contentsOf: copies[ours]), try DocumentBundle(contentsOf: copies[theirs])
                    )
                    let listed = Result { Decision(try PullPlan(listing: our, theirs: their, otherName: nil)) }
                    let planned = Result { Decision(try PullPlan(ours: our, theirs: their)) }
                    switch (listed, planned) {
                    case (.success(let listed), .success(let planned)):
                        #expect(
                            planned == listed,
                            """
                            seed \(seed), step \(step), copy\(theirs) into copy\(ours): walked \(planned), listed \
                            \(listed)
                            """
                        )
                    case (.failure(let listed), .failure(let planned)):
                        #expect(
                            "\(planned)" == "\(listed)", "seed \(seed), step \(step): both refuse, with one message")
                    default:
                        Issue.record(
                            """
                            seed \(seed), step \(step), copy\(theirs) into copy\(ours): listed \(listed), walked \
                            \(planned)
                            """
                        )
                    }
                    if try PullPlan.walk(ours: our, theirs: their) != nil { walked += 1 }
                }
            }
        }
        // The pulls left every copy whole (seed 7 once found the validator refusing a copy
        // that held its first version beside an id a pulled copy had pruned).
        for copy in copies {
            let findings = try BundleValidator.validate(copy, deep: true).findings
            #expect(findings.isEmpty, "seed \(seed), \(copy.lastPathComponent): \(findings)")
        }
        // Many plans are walked (pruned copies fall back to the listing more often).
        #expect(walked > 60 * 6 / 4, "seed \(seed): \(walked) of \(60 * 6) plans walked")
    }
}
