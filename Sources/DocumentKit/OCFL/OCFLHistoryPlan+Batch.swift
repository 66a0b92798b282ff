import Foundation

extension OCFLHistoryPlan {
    /// The versions of a bundle that an object whose head is `remoteHead` lacks: those the
    /// bundle's head reaches and `remoteHead` does not. Found by walking the bundle's
    /// history newest first (places are in order: a version's parents come before it), as
    /// far as the versions it lacks and their parents go, and, so that the documents the
    /// new versions are deltas against are known to be the object's, back to the oldest
    /// of those bases (FORMAT.md §12.3), at most 4,096 versions further; the cost of the
    /// change, not of the history.
    struct PushBatch {
        /// Oldest first.
        var versions: [BundleVersion] = []
        /// Objects of the trees of versions the object holds, as far as the walk went.
        var remoteObjects = Set<ObjectDigest>()
        /// The root tree objects of the versions met, by version id.
        var trees: [VersionID: ObjectDigest] = [:]

        /// The most versions the walk goes past the batch for a delta's base.
        static let longestWalk =
            HistoryPolicy.checkpointRadix * HistoryPolicy.checkpointRadix * HistoryPolicy.checkpointRadix

        static func walk(_ bundle: DocumentBundle, history: BundleHistory, remoteHead: VersionID) throws -> PushBatch {
            // The bundle's walk: it keeps the root trees stored by place that it meets, so
            // that reading them does not list the history.
            guard var walk = bundle.versionsNewestFirst() else {
                preconditionFailure("a push lays out a format-3 history")
            }
            var batch = PushBatch()
            var needed: Set<VersionID> = [bundle.headVersion.id]
            var remote: Set<VersionID> = [remoteHead]
            var unmetParents = Set<VersionID>()
            var oldestBase = Int.max
            var metRemoteHead = false
            var pastBatch = 0
            let origin = history.manifest.chainOrigin
            while let version = try walk.next() {
                unmetParents.remove(version.id)
                if remote.remove(version.id) != nil {
                    needed.remove(version.id)
                    metRemoteHead = metRemoteHead || version.id == remoteHead
                    remote.formUnion(version.parents)
                    batch.trees[version.id] = version.tree
                    batch.remoteObjects.insert(version.tree)
                    for entry in try bundle.treeObject(version.tree).entries {
                        batch.remoteObjects.insert(entry.digest)
                    }
                } else if needed.remove(version.id) != nil {
                    batch.versions.append(version)
                    batch.trees[version.id] = version.tree
                    needed.formUnion(version.parents)
                    unmetParents.formUnion(version.parents)
                    if version.number > origin, let base = HistoryPolicy.deltaBase(ofDocument: version.number - origin)
                    {
                        oldestBase = min(oldestBase, origin + base)
                    }
                }
                // Past what the batch needs, the walk goes on for the deltas' bases: 16
                // versions at a checkpoint of 16, 256 at one of 256, and so on (amortized, a
                // version or two a push), but not past 4,096: a base further back (a
                // checkpoint of 65,536) costs the document stored whole, once in 65,536
                // versions, rather than a walk of the history. Stored whole at the checkpoints
                // of 256, the document made a remote of 300 pushes a tenth larger.
                if needed.isSubset(of: remote), unmetParents.isEmpty {
                    pastBatch += 1
                    if version.number <= oldestBase || pastBatch > Self.longestWalk { break }
                }
            }
            batch.versions.reverse()
            // The pruned ids only when the walk did not meet the remote's head: at 100,000
            // versions pruned to 100, they are 3 MB to read.
            guard try metRemoteHead || bundle.prunedVersionIDs().contains(remoteHead) else {
                throw DocumentKitError(
                    .conflict, "the remote's head \(remoteHead.prefix(12)) is not in this bundle's history")
            }
            if let lost = needed.subtracting(remote).first {
                throw DocumentKitError(
                    .malformedInput,
                    "a version to push has the parent \(lost.prefix(12)), which this bundle pruned and the remote lacks"
                )
            }
            return batch
        }
    }

    /// The items of the segment a push adds, and the entries of the objects they store alone.
    struct SegmentContent {
        var items: [HistorySegment.Item] = []
        /// Entry name → its stored bytes, for objects the items store alone.
        var aloneEntries: [String: FileWrapper] = [:]

        /// Each version of `batch`, oldest first: the objects of its tree that its parents'
        /// trees lack, as the bundle stores them (a delta only when its base is the
        /// object's or among these items; else whole), its root tree by place, its record.
        init(_ batch: PushBatch, of bundle: DocumentBundle) throws {
            guard let history = bundle.history else { preconditionFailure("a push lays out a format-3 history") }
            var available = batch.remoteObjects
            for version in batch.versions {
                var parentObjects = Set<ObjectDigest>()
                for parent in version.parents {
                    guard let tree = batch.trees[parent] else { continue }
                    try Self.collect(tree, in: bundle, into: &parentObjects, skipping: [])
                }
                var objects = Set<ObjectDigest>()
                try Self.collect(version.tree, in: bundle, into: &objects, skipping: parentObjects)
                objects.remove(version.tree)
                for digest in objects.sorted(by: { $0.hex < $1.hex }) where !parentObjects.contains(digest) {
                    try add(digest, history: history, bundle: bundle, available: available)
                    available.insert(digest)
                }
                let tree = try bundle.objectData(version.tree)
                items.append(
                    .object(
                        .init(
                            digest: version.tree, size: UInt64(tree.count), storage: .identity(tree), foundByPlace: true
                        )))
                items.append(.version(id: version.id, record: try version.segmentRecord()))
                available.insert(version.tree)
            }
        }

        /// Adds object `digest` as `bundle` stores it, or whole when its delta base is not
        /// among `available`.
        private mutating func add(
            _ digest: ObjectDigest, history: BundleHistory, bundle: DocumentBundle,
            available: Set<ObjectDigest>
        ) throws {
            if var item = try history.object(digest) {
                item.foundByPlace = false
                switch item.storage {
                case .identity:
                    items.append(.object(item))
                    return
                case .delta(let base, _) where available.contains(base):
                    items.append(.object(item))
                    return
                case .entry(_, _, let base) where base.map(available.contains) ?? true:
                    guard let entry = bundle.zip.entry(named: digest.entryName) else {
                        throw DocumentKitError(
                            .malformedInput, "the history stores object \(digest.short) in an entry the bundle lacks")
                    }
                    items.append(.object(item))
                    aloneEntries[digest.entryName] = FileWrapper(entry: entry, in: bundle.zip)
                    return
                default:
                    break
                }
            }
            // Its base may not be the object's: stored whole, which also starts a new chain.
            let data = try bundle.objectData(digest)
            guard data.count >= BundleWriter.smallObjectLimit else {
                items.append(.object(.init(digest: digest, size: UInt64(data.count), storage: .identity(data))))
                return
            }
            let stored = try ZstdCodec.compress(data)
            items.append(
                .object(
                    .init(
                        digest: digest, size: UInt64(data.count),
                        storage: .entry(codec: .zstd, storedSize: UInt64(stored.count), base: nil))))
            aloneEntries[digest.entryName] = FileWrapper(regularFileWithContents: stored)
        }

        /// Every object below the tree `digest` (itself included), but below trees in `skipping`.
        private static func collect(
            _ digest: ObjectDigest, in bundle: DocumentBundle, into objects: inout Set<ObjectDigest>,
            skipping: Set<ObjectDigest>
        ) throws {
            guard objects.insert(digest).inserted, !skipping.contains(digest) else { return }
            for entry in try bundle.treeObject(digest).entries {
                if entry.kind == .tree {
                    try collect(entry.digest, in: bundle, into: &objects, skipping: skipping)
                } else {
                    objects.insert(entry.digest)
                }
            }
        }
    }
}
