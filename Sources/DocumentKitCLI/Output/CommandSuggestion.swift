/// The command a mistyped one most likely meant, as git suggests one (`docctl lgo` → log).
enum CommandSuggestion {
    /// The closest of `commands` to `typed`: one that `typed` begins (`val` → validate) or
    /// one at most two edits away (a dropped, added, changed or swapped letter counts one),
    /// the nearest first; `nil` when none is that close, or when two are equally close.
    static func closest(to typed: String, among commands: [String]) -> String? {
        let prefixed = commands.filter { $0.hasPrefix(typed) }
        if typed.count >= 2, prefixed.count == 1 { return prefixed[0] }
        let scored = commands.map { (command: $0, distance: distance(typed, $0)) }.filter { $0.distance <= 2 }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        return scored.filter { $0.distance == best.distance }.count == 1 ? best.command : nil
    }

    /// The optimal string alignment distance: Levenshtein's, with a swap of two adjacent
    /// letters (`lgo` for log) counting as one edit.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
