import Foundation

extension PullPlan {
    /// What walking two format-3 histories back from their heads, side by side, finds
    /// (FORMAT.md §12.5): the other copy's versions this copy lacks, where they join this
    /// copy's history, and, when this copy holds the other's head, how many versions it
    /// holds that the other lacks. Each walk reads versions newest first, as far as the two
    /// histories differ, so that a pull of one version reads a few records whatever the
    /// length of either history, where a listing read every record of both.
    ///
    /// Why a version the walk of this copy has not met is not in this copy: places are in
    /// order (every version after its parents), so a version this copy held that descends
    /// from a version `K` this copy holds would have a later place than `K`, and the walk,
    /// having reached `K`, has met every later place. Every version the other copy brings
    /// must descend, through versions it brings, from versions this copy's walk met; when
    /// one does not (two projects, histories pruned on either side, a walk that reached the
    /// start of either history), the walk gives up, and the plan lists both histories.
    struct Walk {
        /// The other copy's versions this copy lacks, each after its parents.
        var missing: [BundleVersion] = []
        /// The versions of this copy the missing ones name as parents, numbered here.
        var joins: [BundleVersion] = []
        /// Whether this copy's head is among the parents of the versions it lacks (a
        /// fast-forward), or is the other's head.
        var headJoins = false
        /// This copy's versions the other lacks, counted when the other's head is here.
        var ahead = 0
    }

    /// The walk of `theirs` into `ours`, both of format 3; `nil` when it cannot decide
    /// (then the listing can).
    static func walk(ours: DocumentBundle, theirs: DocumentBundle) throws -> Walk? {
        guard var ourWalk = ours.versionsNewestFirst(), var theirWalk = theirs.versionsNewestFirst() else { return nil }
        var our = Side(head: ours.headVersion.id)
        var their = Side(head: theirs.headVersion.id)
        var ourDone = false
        var theirDone = false
        while true {
            // Done when every ancestor of the other's head is met by this copy's walk or
            // lacked here; and, when nothing is lacked (the other's head is here), when
            // every ancestor of this head is met by the other's walk or ahead of it.
            if their.frontier.isEmpty, !their.unmatched.isEmpty || our.frontier.isEmpty { break }
            if ourDone && theirDone { return nil }
            if !theirDone {
                if let version = try theirWalk.next() {
                    Self.meet(version, by: &their, other: &our)
                } else {
                    theirDone = true
                }
            }
            // This copy's walk goes twice as fast: when it holds the other's head, it must
            // pass its own versions the other lacks while the other walks its history.
            for _ in 0..<2 where !ourDone {
                if let version = try ourWalk.next() {
                    Self.meet(version, by: &our, other: &their)
                } else {
                    ourDone = true
                }
            }
        }

        var walk = Walk()
        let lacking = their.order.filter(their.unmatched.contains)
        let lackingSet = their.unmatched
        let aheadSet = our.unmatched
        // A version one copy pruned is met by the other walk only, as if the first lacked
        // it: the listing, which names pruned ids, decides then (a pull must not bring back
        // a version this copy pruned after its children). Read only when it could matter.
        if !lacking.isEmpty, !Set(try ours.prunedVersionIDs()).isDisjoint(with: lacking) { return nil }
        if lacking.isEmpty, !aheadSet.isEmpty, !Set(try theirs.prunedVersionIDs()).isDisjoint(with: aheadSet) {
            return nil
        }
        guard !lacking.isEmpty else {
            // Up to date: what this copy holds that the other lacks is what its walk met,
            // reaching its head, that the other's did not, each descending from versions
            // the other's walk met (as above, with the copies' roles swapped).
            for id in aheadSet where our.met[id]!.parents.isEmpty { return nil }
            walk.ahead = aheadSet.count
            walk.headJoins = true
            return walk
        }
        for id in lacking {
            let version = their.met[id]!
            for parent in version.parents where !lackingSet.contains(parent) {
                guard let joined = our.met[parent] else { return nil }
                if !walk.joins.contains(where: { $0.id == parent }) { walk.joins.append(joined) }
            }
            if version.parents.isEmpty { return nil }
        }
        // Met newest first: the other copy's order is the reverse.
        walk.missing = lacking.reversed().map { their.met[$0]! }
        walk.headJoins = walk.joins.contains { $0.id == our.head }
        return walk
    }
}

extension PullPlan {
    /// One copy's side of the walk.
    fileprivate struct Side {
        let head: VersionID
        /// Met by this copy's walk, by id.
        var met: [VersionID: BundleVersion] = [:]
        /// Ancestors of the head (and the head) found so far.
        var reach: Set<VersionID>
        /// Versions reaching the head that the other walk has not met (lacked by the other
        /// copy, so far), and the order this walk met them, newest first (with those the
        /// other walk met after all, left out at the end).
        var unmatched = Set<VersionID>()
        var order: [VersionID] = []
        /// Parents of those that neither walk has met: what keeps this walk going.
        var frontier: Frontier

        init(head: VersionID) {
            self.head = head
            reach = [head]
            frontier = Frontier(head)
        }
    }

    /// `version`, met by `side`'s walk: the other side lets go of it (and, when it had
    /// counted it unmatched, of its parents); when it reaches `side`'s head and the other
    /// walk has not met it, `side` counts it unmatched and waits for its parents.
    private static func meet(_ version: BundleVersion, by side: inout Side, other: inout Side) {
        side.met[version.id] = version
        side.frontier.met(version.id)
        other.frontier.met(version.id)
        // Met by the other walk first: held by both after all, further back on this side.
        if other.unmatched.remove(version.id) != nil { other.frontier.drop(parentsOf: version) }
        guard side.reach.contains(version.id), other.met[version.id] == nil else { return }
        if side.unmatched.insert(version.id).inserted { side.order.append(version.id) }
        side.reach.formUnion(version.parents)
        let (mine, theirs) = (side.met, other.met)
        side.frontier.add(version.parents.filter { mine[$0] == nil && theirs[$0] == nil })
    }
}

/// The ids a walk of two histories has still to meet: parents of the versions one side
/// holds and the other has not been seen to, counted by how many such versions name each,
/// so that a version found after all on the other side lets go of its parents.
private struct Frontier {
    private var waiting: [VersionID: Int]

    init(_ head: VersionID) { waiting = [head: 1] }

    var isEmpty: Bool { waiting.isEmpty }

    mutating func add(_ ids: [VersionID]) {
        for id in ids { waiting[id, default: 0] += 1 }
    }

    /// `id` was met by a walk: it waits no more.
    mutating func met(_ id: VersionID) { waiting[id] = nil }

    /// `version` turned out to be on both sides: its parents wait for it no more.
    mutating func drop(parentsOf version: BundleVersion) {
        for parent in version.parents {
            guard let count = waiting[parent] else { continue }
            waiting[parent] = count > 1 ? count - 1 : nil
        }
    }
}
