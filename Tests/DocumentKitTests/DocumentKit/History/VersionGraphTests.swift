import Foundation
import Testing

@testable import DocumentKit

/// The lanes of `log --graph`, on histories made up to have every shape.
@Suite struct VersionGraphTests {
    /// A version named `id` whose parents are `parents`: only the graph's fields matter.
    private func version(_ id: String, _ parents: String...) -> VersionSummary {
        var summary = VersionSummary(
            BundleVersion(
                number: 1, parents: [], created: Date(timeIntervalSince1970: 0), author: "a", message: "",
                schema: "1.0.0", tree: ObjectDigest.of(Data())))
        summary.id = id
        summary.parents = parents
        return summary
    }

    /// The graph as `log --graph --oneline` prints it, each version's line ending in its id.
    private func draw(_ versions: [VersionSummary]) -> String {
        let rows = VersionGraph(versions).rows
        var lines: [String] = []
        for (index, row) in rows.enumerated() {
            lines.append(row.first + row.version)
            if let merge = row.merge { lines.append(trimmed(merge)) }
            if index < rows.count - 1 { lines += row.after }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func trimmed(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }

    @Test func aLineIsOneLane() {
        #expect(draw([version("c", "b"), version("b", "a"), version("a")]) == "* c\n* b\n* a\n")
    }

    @Test func aMergeOpensALaneThatJoinsAtTheCommonVersion() {
        // A pull: ours (r) and theirs (w, x) since the common version b, merged as m.
        let versions = [
            version("m", "r", "x"), version("x", "w"), version("w", "b"), version("r", "b"), version("b", "a"),
            version("a")
        ]
        #expect(
            draw(versions) == """
                *   m
                |\\
                | * x
                | * w
                * | r
                |/
                * b
                * a

                """)
        let merge = VersionGraph(versions).rows[0]
        #expect(
            merge.first == "*   " && merge.merge == "|\\  " && merge.rest == "| | " && merge.after.isEmpty,
            "padded alike, so text lines up")
    }

    @Test func lanesRightOfAMergeMoveOverAndJoinOneByOne() {
        // Two pulls into one copy: b's versions, then c's.
        let versions = [
            version("m2", "m1", "c2"), version("c2", "c1"), version("c1", "base"), version("m1", "a1", "b2"),
            version("b2", "b1"), version("b1", "base"), version("a1", "base"), version("base")
        ]
        #expect(
            draw(versions) == """
                *   m2
                |\\
                | * c2
                | * c1
                * |   m1
                |\\ \\
                | * | b2
                | * | b1
                | |/
                * | a1
                |/
                * base

                """)
    }

    @Test func aLaneJoiningFromFurtherRightCrossesTheLanesBetween() {
        // After v, lanes wait for x, y and x: the third joins the first across the second.
        let versions = [version("t", "x"), version("u", "y"), version("v", "x"), version("y", "x"), version("x")]
        #expect(
            draw(versions) == """
                * t
                | * u
                | | * v
                | |/
                |/|
                | * y
                |/
                * x

                """)
        #expect(VersionGraph(versions).rows[2].after == ["| |/", "|/|"])
    }

    @Test func aParentThatWasPrunedDrawsNoLane() {
        // b's parent and the merge's second parent are not in the list: no lane waits for them.
        let rows = VersionGraph([version("m", "b", "gone"), version("b", "pruned")]).rows
        #expect(rows[0].first == "* " && rows[0].merge == nil)
        #expect(rows[1].first == "* " && rows[1].after.isEmpty)
    }

    @Test func aLaneThatEndsLetsTheLanesRightOfItMoveOver() {
        // Two roots side by side (a bundle has one; the graph draws any list).
        let rows = VersionGraph([version("q", "a"), version("r", "b"), version("a"), version("b")]).rows
        #expect(rows.map(\.first) == ["* ", "| * ", "* | ", "* "])
        #expect(rows[2].rest == "  | " && rows[2].after == [" /"])
        #expect(rows[3].after.isEmpty && rows[3].rest == "  ", "the last lane ends: nothing to move")
    }
}
