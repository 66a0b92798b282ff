import DocumentKitBundle
import DocumentKitJSON
import Foundation

extension ValidationPass {
    /// What the pass over a format-3 history's segments learned.
    package struct SegmentsSummary {
        /// Whether every segment read whole: the rest of the checks need them.
        var sound = true
        /// The objects the items store (a root tree saved again when a version returns to
        /// an earlier state is stored, and counted, again).
        var stored = HistoryManifest.ObjectCounts()
        /// The versions, and the distinct objects.
        var versions = 0
        var objects = 0
    }

    /// Checks a format-3 bundle's history segments whole (FORMAT.md §12.2), each read once
    /// and each record parsed once (``SegmentFacts``, side by side on every core), then
    /// checked in order, never listing the history: each record's members, its signature
    /// and its tree; the version graph (``VersionGraphCheck``); and, for the quick check,
    /// that every delta's chain of bases reaches an object stored whole (`--deep` decodes
    /// the chains from the listed history instead). Keeps the record of each object stored
    /// alone, in an entry, for the entry checks. Holds 16 bytes a version and an object
    /// (``DigestKey``), and a few segments' facts at a time.
    package mutating func checkSegments() -> SegmentsSummary {
        var summary = SegmentsSummary()
        guard let history = bundle.history else { return summary }
        // Room for every version and object at once, as many as the segments' trailers
        // count (bytes the bundle holds, unlike the manifest's counts, which could lie).
        let readers = history.segments.map(\.reader)
        let versions = readers.reduce(0) { $0 + $1.versionCount }
        var graph = VersionGraphCheck(versions: versions)
        var objects = Set<DigestKey>(
            minimumCapacity: min(history.manifest.objects.count, readers.reduce(versions) { $0 + $1.objectCount }))
        var deltas = DeltaChains()
        var unplacedTrees: [(tree: ObjectDigest, place: Int)] = []
        var pruned = Set<VersionID>()
        let segments = history.segments
        // `consume` never throws: a damaged segment is a finding.
        try? OrderedWork.run(
            count: segments.count, width: ProcessInfo.processInfo.activeProcessorCount, lookahead: 2,
            produce: { SegmentFacts(readers[$0]) }
        ) { index, facts in
            if let failure = facts.failure {
                report("history.damaged", failure, entry: segments[index].name)
                summary.sound = false
            }
            guard summary.sound else { return }
            var place = segments[index].places.lowerBound
            var previous: HistorySegment.ObjectItem.Summary?
            for item in facts.items {
                switch item {
                case .object(let object):
                    summary.stored.add(object.record)
                    objects.insert(DigestKey(object.digest))
                    objectsInEntries[object.digest] = object.isInEntry ? object.record : nil
                    if !deep { deltas.add(object.digest, object.record, objects: objects) }
                    previous = object
                case .version(let record):
                    check(record, place: place, graph: &graph)
                    if let tree = record.tree, !(previous?.foundByPlace == true && previous?.digest == tree) {
                        unplacedTrees.append((tree, place))
                    }
                    place += 1
                    previous = nil
                case .pruned(let id):
                    pruned.insert(id)
                    previous = nil
                }
            }
        }
        guard summary.sound else { return summary }
        for (tree, place) in unplacedTrees where !objects.contains(DigestKey(tree)) {
            report("tree.missing", "its tree object \(tree.short) is in none of the history's segments", version: place)
        }
        for finding in deltas.findings(objects: objects) {
            report(finding.code, finding.message, entry: finding.digest.entryName)
        }
        summary.versions = graph.count
        summary.objects = objects.count
        report(graph, pruned: pruned, head: history.manifest.head)
        return summary
    }

    /// The checks of one record as a segment holds it: its members, its signature, and its
    /// place in the graph. Its id was computed from it, so it cannot disagree.
    private mutating func check(_ record: SegmentFacts.Record, place: Int, graph: inout VersionGraphCheck) {
        reportUnknownMembers(record.unknownMembers, version: place)
        graph.add(id: record.id, number: place, parents: record.parents, recordFormat: record.recordFormat)
        switch record.signature {
        case .none, .valid: break
        case .invalid: reportInvalidSignature(version: place)
        case .malformed:
            report(
                "version.signature-invalid", "its signature is not a signature record (FORMAT.md §5.4)", version: place)
        }
    }

    /// A format-3 manifest's object counts, which `info` reports, against what the
    /// history's segments store.
    package mutating func checkHistoryCounts(stored listed: HistoryManifest.ObjectCounts) {
        guard let recorded = bundle.history?.manifest.objects else { return }
        guard listed != recorded else { return }
        report(
            "manifest.counts",
            """
            manifest.json counts \(recorded.count) objects of \(recorded.bytes) bytes (\(recorded.storedBytes) \
            stored); the history holds \(listed.count) of \(listed.bytes) (\(listed.storedBytes) stored)
            """,
            entry: BundleEntry.manifest)
    }
}
