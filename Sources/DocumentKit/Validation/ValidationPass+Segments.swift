import Foundation

extension ValidationPass {
    /// Checks a format-3 bundle's history segments whole (docs/format-3.md §2): each
    /// index against its CRC-32 and its blocks, every block decoded and every item read,
    /// every record's row against its id. Returns whether they are sound: the rest of the
    /// checks list the history, which a damaged segment would stop.
    package mutating func checkSegments() -> Bool {
        guard let history = bundle.history else { return true }
        var sound = true
        for segment in history.segments {
            do {
                try segment.reader.verifyIndex()
                let versions = try segment.reader.items().count { if case .version = $0 { true } else { false } }
                guard versions == segment.reader.versionCount else {
                    throw HistorySegment.failure("it holds \(versions) records, and its index \(segment.reader.versionCount)")
                }
                for index in 0..<segment.reader.versionCount { _ = try segment.reader.version(at: index) }
            } catch {
                report("history.damaged", (error as? DocumentKitError)?.message ?? "\(error)", entry: segment.name)
                sound = false
            }
        }
        return sound
    }

    /// A format-3 manifest's object counts, which `info` reports, against the history's.
    package mutating func checkHistoryCounts() {
        guard let recorded = bundle.history?.manifest.objects else { return }
        var listed = HistoryManifest.ObjectCounts()
        for record in manifest.objects.values { listed.add(record) }
        guard listed != recorded else { return }
        report("manifest.counts", "manifest.json counts \(recorded.count) objects of \(recorded.bytes) bytes (\(recorded.storedBytes) stored); the history holds \(listed.count) of \(listed.bytes) (\(listed.storedBytes) stored)", entry: BundleEntry.manifest)
    }
}
