import Foundation

/// What pulling one copy of a bundle into another takes, worked out from their version
/// graphs alone (FORMAT.md §5.2, §5.3): which of the other copy's versions are new here,
/// whether the pull is a fast-forward or a merge, and against which common ancestor.
struct PullPlan {
    enum Kind { case upToDate, fastForward, merge }

    let kind: Kind
    /// The other copy's versions this copy lacks, in its order (each after its parents).
    let missing: [BundleVersion]
    /// Parents of those versions that neither copy holds: the other copy pruned them.
    let prunedParents: [VersionID]
    /// For a merge, the newest common ancestor, and the copy that holds its record.
    let base: (version: BundleVersion, bundle: DocumentBundle)?
    /// When this copy holds the other's head: how many versions it holds that the other
    /// lacks (its head reaches them through versions the other neither holds nor pruned):
    /// what a pull the other way, or a push, would send. Else 0.
    let ahead: Int

    /// Plans pulling `theirs` into `ours`; messages call the other copy `otherName` (a
    /// remote's address, where `theirs` is a temporary copy of it). Throws when they share
    /// no version (two projects, not two copies) or when the versions they last shared were
    /// pruned, so that there is nothing to merge against.
    init(ours: DocumentBundle, theirs: DocumentBundle, otherName: String? = nil) throws {
        if let walk = try Self.walk(ours: ours, theirs: theirs) {
            let kind: Kind = walk.missing.isEmpty ? .upToDate : walk.headJoins ? .fastForward : .merge
            // Every version this copy holds is an ancestor of its head, so the common
            // ancestors are those of the versions the missing ones join, and the newest is
            // the one of these with the latest place (FORMAT.md §12.5).
            let base = kind == .merge ? (walk.joins.max { $0.number < $1.number }!, ours) : nil
            self.init(kind: kind, missing: walk.missing, prunedParents: [], base: base, ahead: walk.ahead)
            return
        }
        try self.init(listing: ours, theirs: theirs, otherName: otherName)
    }

    private init(
        kind: Kind, missing: [BundleVersion], prunedParents: [VersionID],
        base: (version: BundleVersion, bundle: DocumentBundle)?, ahead: Int
    ) {
        (self.kind, self.missing, self.prunedParents, self.base, self.ahead) = (
            kind, missing, prunedParents, base, ahead
        )
    }

    /// The plan worked out from both copies' lists of every version: for bundles of
    /// formats 1 and 2, whose manifests list them anyway, and for what the walk of two
    /// format-3 histories cannot decide (two projects, pruned histories).
    init(listing ours: DocumentBundle, theirs: DocumentBundle, otherName: String?) throws {
        let other = otherName ?? theirs.url.relativePath
        let ourManifest = try ours.manifest
        let theirManifest = try theirs.manifest
        let known = Set(ourManifest.versions.map(\.id)).union(ourManifest.pruned)
        // What the other's head reaches through versions this copy neither holds nor
        // pruned: not a version behind one this copy holds, which its history reaches
        // already (though through a pruned id), nor anything when it holds the other's head.
        let reached = Self.reached(from: theirManifest.head, in: theirManifest, notThrough: known)
        missing = theirManifest.versions.filter { reached.contains($0.id) }
        let missingIDs = Set(missing.map(\.id))
        var pruned: [VersionID] = []
        var seen = Set<VersionID>()
        for version in missing {
            for parent in version.parents
            where !known.contains(parent) && !missingIDs.contains(parent) && seen.insert(parent).inserted {
                pruned.append(parent)
            }
        }
        prunedParents = pruned
        guard !missing.isEmpty else {
            let theirs = Set(theirManifest.versions.map(\.id)).union(theirManifest.pruned)
            (kind, base, ahead) = (
                .upToDate, nil, Self.reached(from: ourManifest.head, in: ourManifest, notThrough: theirs).count
            )
            return
        }
        ahead = 0
        let theirAncestors = Self.ancestors(of: theirManifest.head, in: theirManifest)
        if theirAncestors.contains(ourManifest.head) {
            (kind, base) = (.fastForward, nil)
            return
        }
        let common = Self.ancestors(of: ourManifest.head, in: ourManifest).intersection(theirAncestors)
        guard !common.isEmpty else {
            // Copies of one project name the same versions, held or pruned: then the history
            // that joins them is what was pruned.
            let everOurs = known
            let everTheirs = Set(theirManifest.versions.map(\.id)).union(theirManifest.pruned)
            guard everOurs.isDisjoint(with: everTheirs) else {
                throw DocumentKitError(
                    .invalidDocument,
                    """
                    and \(other) have both changed since the last version they share, which this copy has pruned \
                    (its oldest version is \(ourManifest.versions.first?.number ?? 0)), so there is nothing to \
                    merge against; nothing was pulled
                    """,
                    path: ours.url.relativePath)
            }
            throw DocumentKitError(
                .invalidDocument,
                """
                shares no version with \(other): they are two projects, not two copies of one (no common \
                ancestor); nothing was pulled
                """,
                path: ours.url.relativePath)
        }
        // Each list has every version after its parents, so the last common version in
        // one of them is an ancestor of no other: the newest common ancestor.
        if let newest = ourManifest.versions.last(where: { common.contains($0.id) }) {
            base = (newest, ours)
        } else if let newest = theirManifest.versions.last(where: { common.contains($0.id) }) {
            base = (newest, theirs)
        } else {
            throw DocumentKitError(
                .invalidDocument,
                """
                and \(other) last shared versions both copies have pruned, so there is nothing to merge against; \
                nothing was pulled
                """,
                path: ours.url.relativePath)
        }
        kind = .merge
    }

    /// The versions of `manifest` that `head` reaches through versions not in `known`
    /// (`head` among them, unless it is known).
    private static func reached(from head: VersionID, in manifest: BundleManifest, notThrough known: Set<VersionID>)
        -> Set<VersionID>
    {
        let parents = Dictionary(manifest.versions.map { ($0.id, $0.parents) }, uniquingKeysWith: { first, _ in first })
        var reached = Set<VersionID>()
        var pending = [head]
        while let id = pending.popLast() {
            guard !known.contains(id), let next = parents[id], reached.insert(id).inserted else { continue }
            pending += next
        }
        return reached
    }

    /// `head` and every version it descends from that `manifest` names, its own or pruned.
    static func ancestors(of head: VersionID, in manifest: BundleManifest) -> Set<VersionID> {
        let parents = Dictionary(manifest.versions.map { ($0.id, $0.parents) }, uniquingKeysWith: { first, _ in first })
        var reached: Set<VersionID> = [head]
        var pending = [head]
        while let id = pending.popLast() {
            for parent in parents[id] ?? [] where reached.insert(parent).inserted {
                pending.append(parent)
            }
        }
        return reached
    }

    /// The objects of `theirs` the missing versions need and `ours` lacks, with every
    /// delta base they need in turn, sorted. A tree `ours` holds is not walked: it holds
    /// everything below it too, so a pull reads the trees that changed, not the project's.
    func objectsToCopy(from theirs: DocumentBundle, into ours: DocumentBundle) throws -> [ObjectDigest] {
        var needed = Set<ObjectDigest>()
        var pending = missing.map(\.tree)
        while let digest = pending.popLast() {
            guard try !ours.hasObject(digest), needed.insert(digest).inserted else { continue }
            for entry in try theirs.treeObject(digest).entries {
                switch entry.kind {
                case .tree: pending.append(entry.digest)
                case .file: if try !ours.hasObject(entry.digest) { needed.insert(entry.digest) }
                }
            }
        }
        pending = Array(needed)
        while let digest = pending.popLast() {
            if let base = try theirs.objectRecord(digest)?.base, try !ours.hasObject(base), needed.insert(base).inserted
            {
                pending.append(base)
            }
        }
        return needed.sorted()
    }
}
