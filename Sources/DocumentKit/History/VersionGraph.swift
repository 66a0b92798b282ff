import Foundation

/// The history drawn as `git log --graph` draws it: each version a `*` in its lane, the
/// lanes of the versions still to come as `|`, a merge opening a lane to its second parent
/// (`|\`), and lanes that reach the same version joining (`|/`).
///
/// Lanes are columns two characters apart. A version's lines are prefixed by its rows, each
/// padded to the same width so that the text beside them lines up:
///
/// ```
/// *   version 8, a merge          first
/// |\                              merge
/// | * version 7                   first of the next row …
/// | * version 6
/// * | version 5
/// |/                              after
/// * version 4
/// ```
public struct VersionGraph: Sendable {
    /// The graph beside one version's lines.
    public struct Row: Equatable, Sendable {
        /// The version this row is for.
        public var version: VersionID
        /// Beside the version's first line: `*` in its lane, `|` in the others.
        public var first: String
        /// Beside its second line, for a merge: the lane to its second parent opening (`|\`).
        public var merge: String?
        /// Beside every further line.
        public var rest: String
        /// Lines of graph alone, after the version's lines and before the next version's:
        /// lanes that reached the same version joining, or moving over when a lane ended.
        public var after: [String]
    }

    /// One row per version, in the order given.
    public private(set) var rows: [Row] = []

    /// Draws `versions`, newest first, each after every version that has it as a parent
    /// (as `BundleSummary.log` lists them). A parent that is not among them (pruned) draws
    /// no lane. Costs one pass over the versions, times the lanes open at once.
    public init(_ versions: [VersionSummary]) {
        let known = Set(versions.map(\.id))
        var lanes: [VersionID] = []
        for version in versions {
            let column: Int
            if let found = lanes.firstIndex(of: version.id) {
                column = found
            } else {
                lanes.append(version.id)
                column = lanes.count - 1
            }
            let parents = version.parents.filter(known.contains)
            var next = lanes
            if parents.isEmpty {
                next.remove(at: column)
            } else {
                next[column] = parents[0]
                if parents.count > 1 { next.insert(parents[1], at: column + 1) }
            }
            let width = max(lanes.count, next.count)
            var row = Row(version: version.id, first: "", merge: nil, rest: "", after: [])
            row.first = Self.draw(width: width, lanes.indices.map { (2 * $0, $0 == column ? "*" : "|") })
            if parents.count > 1 {
                // The lanes right of the merge move one over to make room for its second parent.
                row.merge = Self.draw(
                    width: width,
                    lanes.indices.flatMap { lane -> [(Int, Character)] in
                        if lane < column { return [(2 * lane, "|")] }
                        if lane == column { return [(2 * lane, "|"), (2 * lane + 1, "\\")] }
                        return [(2 * lane + 1, "\\")]
                    })
            }
            if parents.isEmpty {
                // The lane ends here; those right of it move over after the version's lines.
                row.rest = Self.draw(width: width, lanes.indices.filter { $0 != column }.map { (2 * $0, "|") })
                if column < next.count {
                    row.after.append(
                        Self.draw(
                            width: 0,
                            lanes.indices.filter { $0 != column }.map { lane in
                                lane < column ? (2 * lane, "|") : (2 * lane - 1, "/")
                            }))
                }
            } else {
                row.rest = Self.draw(width: width, next.indices.map { (2 * $0, "|") })
                row.after = Self.join(&next)
            }
            lanes = next
            rows.append(row)
        }
    }

    /// Joins lanes that wait for the same version into the leftmost of them, one lane a
    /// line, and returns the lines that draw it: `|/` for a lane next to it, and for one
    /// further right, first `| |/`, then `|/|` as it crosses the lanes between.
    private static func join(_ lanes: inout [VersionID]) -> [String] {
        var lines: [String] = []
        while true {
            var firstLane: [VersionID: Int] = [:]
            var moving: (from: Int, to: Int)?
            for (lane, id) in lanes.enumerated() {
                if let earlier = firstLane[id] {
                    moving = (lane, earlier)
                    break
                }
                firstLane[id] = lane
            }
            guard let (from, to) = moving else { return lines }
            // The joining lane moves one column left; so do all right of it, for good.
            lines.append(
                draw(width: 0, lanes.indices.map { lane in lane < from ? (2 * lane, "|") : (2 * lane - 1, "/") }))
            lanes.remove(at: from)
            var position = from - 1
            while position > to {
                lines.append(draw(width: 0, lanes.indices.map { (2 * $0, "|") } + [(2 * position - 1, "/")]))
                position -= 1
            }
        }
    }

    /// A line of `width` lanes (two characters each) with `marks` at their positions; with
    /// a width of 0, as long as its marks (a line of graph alone, no trailing spaces).
    private static func draw(width: Int, _ marks: [(Int, Character)]) -> String {
        let length = max(2 * width, (marks.map(\.0).max() ?? -1) + 1)
        var characters = [Character](repeating: " ", count: length)
        for (position, mark) in marks { characters[position] = mark }
        return String(characters)
    }
}
