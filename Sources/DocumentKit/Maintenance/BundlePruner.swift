import Foundation

/// Drops old versions and the objects no remaining version uses, atomically. The versions
/// that stay keep their numbers and ids; the manifest records the ids it dropped, so the
/// oldest remaining version's parent is accounted for.
///
/// ```swift
/// let report = try BundlePruner.prune(url, keep: 10, dryRun: true)
/// print(report.removedVersions.count, report.freedBytes)
/// ```
public enum BundlePruner {
    /// What a prune removed, or would remove.
    public struct Report: Codable, Equatable, Sendable {
        /// Whether nothing was written.
        public var dryRun: Bool
        /// The numbers of the versions removed, oldest first.
        public var removedVersions: [Int]
        /// How many versions remain.
        public var keptVersions: Int
        /// How many objects no remaining version uses.
        public var removedObjects: Int
        /// Their stored bytes: what the bundle shrinks by.
        public var freedBytes: UInt64
    }

    /// Removes the oldest versions of the bundle at `url`: all but the newest `keep`, and/or
    /// those created before `before` (with both, only versions both would remove). The
    /// head always stays. With `dryRun`, reports and writes nothing.
    public static func prune(
        _ url: URL, keep: Int? = nil, before: Date? = nil, dryRun: Bool = false,
        compression: ObjectCompression = .zstd
    ) throws -> Report {
        guard keep != nil || before != nil else {
            throw DocumentKitError(
                .usage, "say what to prune: how many versions to keep, a date to prune before, or both")
        }
        if let keep, keep < 1 {
            throw DocumentKitError(.usage, "at least one version is kept: the head version always stays")
        }
        return try DocumentKitError.located(at: url.relativePath) {
            try BundleSaver.locked(at: url) { saver in
                let bundle = saver.bundle
                if let history = bundle.history {
                    return try pruneHistory(
                        history, keep: keep, before: before, with: saver, dryRun: dryRun, compression: compression)
                }
                let versions = try bundle.manifest.versions
                var dropCount = 0
                while dropCount < versions.count - 1 {
                    let byCount = keep.map { dropCount < versions.count - $0 } ?? true
                    let byDate = before.map { versions[dropCount].created < $0 } ?? true
                    guard byCount, byDate else { break }
                    dropCount += 1
                }
                let kept = Array(versions[dropCount...])
                let reachable = try reachableObjects(of: kept, in: bundle)
                let unused = try bundle.manifest.objects.filter { !reachable.contains($0.key) }
                let report = Report(
                    dryRun: dryRun, removedVersions: versions[..<dropCount].map(\.number), keptVersions: kept.count,
                    removedObjects: unused.count, freedBytes: unused.values.reduce(0) { $0 + $1.storedSize })
                guard !dryRun, dropCount > 0 || !unused.isEmpty else { return report }
                var manifest = try bundle.manifest
                manifest.versions = kept
                manifest.objects = manifest.objects.filter { reachable.contains($0.key) }
                manifest.pruned += versions[..<dropCount].map(\.id)
                // A delta whose base goes is stored whole instead. (Bases are newer documents,
                // so this takes a history a writer other than DocumentKit arranged.)
                var whole: [ObjectDigest: TreePlanner.PendingObject] = [:]
                var sizes: [ObjectDigest: UInt64] = [:]
                for (digest, record) in manifest.objects
                where record.codec == .delta && !reachable.contains(record.base ?? digest) {
                    whole[digest] = .data(try bundle.objectData(digest))
                    sizes[digest] = record.size
                }
                try saver.rewrite(
                    BundleWriter.Contents(
                        mimeType: bundle.mimeType, document: try bundle.documentData(of: bundle.headVersion),
                        manifest: manifest, newObjects: whole, sizes: sizes, base: bundle,
                        compression: compression))
                return report
            }
        }
    }

    /// A prune of a format-3 history: the versions to drop counted (for `before`, read
    /// oldest first only as far as they go), the kept versions read newest first and their
    /// trees walked, and the history rewritten from its segments' items without listing it
    /// (FORMAT.md §12.4).
    private static func pruneHistory(
        _ history: BundleHistory, keep: Int?, before: Date?, with saver: BundleSaver, dryRun: Bool,
        compression: ObjectCompression
    ) throws -> Report {
        let bundle = saver.bundle
        let count = history.manifest.versions
        // The head stays: keeping one version is what no `keep` means.
        var dropCount = max(0, count - (keep ?? 1))
        if let before { dropCount = try droppable(from: history, upTo: dropCount, before: before, in: bundle) }
        var kept: [BundleVersion] = []
        if var newestFirst = bundle.versionsNewestFirst() {
            while kept.count < count - dropCount, let version = try newestFirst.next() { kept.append(version) }
        }
        let reachable = try reachableObjects(of: kept, in: bundle)
        let lastDropped = history.manifest.pruned + dropCount
        // Written when something goes: counted first only when no version does.
        var outcome =
            !dryRun && dropCount > 0
            ? try saver.rewritePruned(throughPlace: lastDropped, reachable: reachable, compression: compression)
            : try BundleWriter.writePruned(
                bundle, throughPlace: lastDropped, reachable: reachable, compression: compression, to: nil)
        if !dryRun, dropCount == 0, outcome.removedObjects > 0 {
            outcome = try saver.rewritePruned(throughPlace: lastDropped, reachable: reachable, compression: compression)
        }
        return Report(
            dryRun: dryRun, removedVersions: outcome.removedPlaces.map(Array.init) ?? [],
            keptVersions: count - dropCount,
            removedObjects: outcome.removedObjects, freedBytes: outcome.freedBytes)
    }

    /// How many of the oldest versions, at most `limit`, were created before `date`: read
    /// oldest first, a block at a time, and only until one was not.
    private static func droppable(
        from history: BundleHistory, upTo limit: Int, before date: Date, in bundle: DocumentBundle
    ) throws -> Int {
        var count = 0
        for segment in history.segments {
            for block in 0..<segment.reader.blockCount {
                let versions = try DocumentKitError.located(at: bundle.url.relativePath) {
                    try BundleHistory.inSegment(segment.name) { try segment.reader.versions(inBlock: block) }
                }
                for stored in versions {
                    guard count < limit, try BundleVersion(segmentRecord: stored.record, number: 0).created < date
                    else { return count }
                    count += 1
                }
            }
        }
        return count
    }

    /// Every object the trees of `versions` use, trees included.
    package static func reachableObjects(of versions: [BundleVersion], in bundle: DocumentBundle) throws -> Set<
        ObjectDigest
    > {
        var reachable = Set<ObjectDigest>()
        var pending = versions.map(\.tree)
        while let digest = pending.popLast() {
            guard reachable.insert(digest).inserted else { continue }
            for entry in try TreeObject.decode(try bundle.objectData(digest), digest: digest).entries {
                switch entry.kind {
                case .tree: pending.append(entry.digest)
                case .file: reachable.insert(entry.digest)
                }
            }
        }
        return reachable
    }
}
