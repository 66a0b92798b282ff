import Foundation

extension ValidationPass {
    /// Checks a format-3 bundle's history segments whole (FORMAT.md §12.2): each
    /// index against its CRC-32 and its blocks, every block decoded and every item read,
    /// every record's row against its id. Returns whether they are sound, and the objects
    /// their items store (a root tree saved again when a version returns to an earlier
    /// state is stored, and counted, again): the rest of the checks list the history,
    /// which a damaged segment would stop.
    package mutating func checkSegments() -> (sound: Bool, stored: HistoryManifest.ObjectCounts) {
        var stored = HistoryManifest.ObjectCounts()
        guard let history = bundle.history else { return (true, stored) }
        var sound = true
        for segment in history.segments {
            do {
                try segment.reader.verifyIndex()
                let items = try segment.reader.items()
                for case .object(let object) in items { stored.add(object.record) }
                let versions = items.count { if case .version = $0 { true } else { false } }
                guard versions == segment.reader.versionCount else {
                    throw HistorySegment.failure("it holds \(versions) records, and its index \(segment.reader.versionCount)")
                }
                for index in 0..<segment.reader.versionCount { _ = try segment.reader.version(at: index) }
            } catch {
                report("history.damaged", (error as? DocumentKitError)?.message ?? "\(error)", entry: segment.name)
                sound = false
            }
        }
        return (sound, stored)
    }

    /// A format-3 manifest's object counts, which `info` reports, against what the
    /// history's segments store.
    package mutating func checkHistoryCounts(stored listed: HistoryManifest.ObjectCounts) {
        guard let recorded = bundle.history?.manifest.objects else { return }
        guard listed != recorded else { return }
        report("manifest.counts", "manifest.json counts \(recorded.count) objects of \(recorded.bytes) bytes (\(recorded.storedBytes) stored); the history holds \(listed.count) of \(listed.bytes) (\(listed.storedBytes) stored)", entry: BundleEntry.manifest)
    }
}
