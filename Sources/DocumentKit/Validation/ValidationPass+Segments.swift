import Foundation

extension ValidationPass {
    /// Checks a format-3 bundle's history segments whole (FORMAT.md §12.2), each read
    /// once (``HistorySegment/Reader/verifiedItems()``), and each record's members. Returns whether they are sound,
    /// the objects their items store (a root tree saved again when a version returns to an
    /// earlier state is stored, and counted, again), and those the newest item of each
    /// digest stores alone, in an entry: the rest of the checks list the history, which a
    /// damaged segment would stop.
    package mutating func checkSegments() -> (sound: Bool, stored: HistoryManifest.ObjectCounts, inEntries: Set<ObjectDigest>) {
        var stored = HistoryManifest.ObjectCounts()
        var inEntries = Set<ObjectDigest>()
        guard let history = bundle.history else { return (true, stored, inEntries) }
        var sound = true
        for segment in history.segments {
            do {
                var place = segment.places.lowerBound
                for item in try segment.reader.verifiedItems() {
                    switch item {
                    case .object(let object):
                        stored.add(object.record)
                        if case .entry = object.storage { inEntries.insert(object.digest) } else { inEntries.remove(object.digest) }
                    case .version(_, let record):
                        // Its id was computed from it, so only members it should not have remain to check.
                        if let parsed = try? JSONValue.parse(record) { checkMembers(ofRecord: parsed, version: place) }
                        place += 1
                    case .pruned:
                        break
                    }
                }
            } catch {
                report("history.damaged", (error as? DocumentKitError)?.message ?? "\(error)", entry: segment.name)
                sound = false
            }
        }
        return (sound, stored, inEntries)
    }

    /// A format-3 manifest's object counts, which `info` reports, against what the
    /// history's segments store.
    package mutating func checkHistoryCounts(stored listed: HistoryManifest.ObjectCounts) {
        guard let recorded = bundle.history?.manifest.objects else { return }
        guard listed != recorded else { return }
        report("manifest.counts", "manifest.json counts \(recorded.count) objects of \(recorded.bytes) bytes (\(recorded.storedBytes) stored); the history holds \(listed.count) of \(listed.bytes) (\(listed.storedBytes) stored)", entry: BundleEntry.manifest)
    }
}
