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
        let ourHead = ours.headVersion.id, theirHead = theirs.headVersion.id
        // Met by each walk, by id.
        var ourMet: [VersionID: BundleVersion] = [:], theirMet: [VersionID: BundleVersion] = [:]
        // Ancestors of each head (and the head) found so far.
        var ourReach: Set<VersionID> = [ourHead], theirReach: Set<VersionID> = [theirHead]
        // The other copy's versions reaching its head that this copy's walk has not met
        // (lacked here, so far), and the order the other's walk met them, newest first
        // (with those found here after all, left out at the end); this copy's reaching its
        // head that the other walk has not met (ahead of it, so far).
        var lackingSet = Set<VersionID>(), metOrder: [VersionID] = [], aheadSet = Set<VersionID>()
        // Parents of those that neither walk has met: what keeps each walk going.
        var theirFrontier = Frontier(theirHead), ourFrontier = Frontier(ourHead)

        func meetOurs(_ version: BundleVersion) {
            ourMet[version.id] = version
            theirFrontier.met(version.id)
            ourFrontier.met(version.id)
            // Lacked here after all (this copy holds it further back than the other does).
            if lackingSet.remove(version.id) != nil { theirFrontier.drop(parentsOf: version) }
            guard ourReach.contains(version.id), theirMet[version.id] == nil else { return }
            aheadSet.insert(version.id)
            ourReach.formUnion(version.parents)
            ourFrontier.add(version.parents.filter { ourMet[$0] == nil && theirMet[$0] == nil })
        }
        func meetTheirs(_ version: BundleVersion) {
            theirMet[version.id] = version
            ourFrontier.met(version.id)
            theirFrontier.met(version.id)
            if aheadSet.remove(version.id) != nil { ourFrontier.drop(parentsOf: version) }
            guard theirReach.contains(version.id), ourMet[version.id] == nil else { return }
            if lackingSet.insert(version.id).inserted { metOrder.append(version.id) }
            theirReach.formUnion(version.parents)
            theirFrontier.add(version.parents.filter { ourMet[$0] == nil && theirMet[$0] == nil })
        }

        var ourDone = false, theirDone = false
        while true {
            // Done when every ancestor of the other's head is met by this copy's walk or
            // lacked here; and, when nothing is lacked (the other's head is here), when
            // every ancestor of this head is met by the other's walk or ahead of it.
            if theirFrontier.isEmpty, !lackingSet.isEmpty || ourFrontier.isEmpty { break }
            if ourDone && theirDone { return nil }
            if !theirDone {
                if let version = try theirWalk.next() { meetTheirs(version) } else { theirDone = true }
            }
            // This copy's walk goes twice as fast: when it holds the other's head, it must
            // pass its own versions the other lacks while the other walks its history.
            for _ in 0..<2 where !ourDone {
                if let version = try ourWalk.next() { meetOurs(version) } else { ourDone = true }
            }
        }

        var walk = Walk()
        let lacking = metOrder.filter(lackingSet.contains)
        // A version one copy pruned is met by the other walk only, as if the first lacked
        // it: the listing, which names pruned ids, decides then (a pull must not bring back
        // a version this copy pruned after its children). Read only when it could matter.
        if !lacking.isEmpty, !Set(try ours.prunedVersionIDs()).isDisjoint(with: lacking) { return nil }
        if lacking.isEmpty, !aheadSet.isEmpty, !Set(try theirs.prunedVersionIDs()).isDisjoint(with: aheadSet) { return nil }
        guard !lacking.isEmpty else {
            // Up to date: what this copy holds that the other lacks is what its walk met,
            // reaching its head, that the other's did not, each descending from versions
            // the other's walk met (as above, with the copies' roles swapped).
            for id in aheadSet where ourMet[id]!.parents.isEmpty { return nil }
            walk.ahead = aheadSet.count
            walk.headJoins = true
            return walk
        }
        for id in lacking {
            let version = theirMet[id]!
            for parent in version.parents where !lackingSet.contains(parent) {
                guard let joined = ourMet[parent] else { return nil }
                if !walk.joins.contains(where: { $0.id == parent }) { walk.joins.append(joined) }
            }
            if version.parents.isEmpty { return nil }
        }
        // Met newest first: the other copy's order is the reverse.
        walk.missing = lacking.reversed().map { theirMet[$0]! }
        walk.headJoins = walk.joins.contains { $0.id == ourHead }
        return walk
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
