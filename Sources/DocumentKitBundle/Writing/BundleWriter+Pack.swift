import DocumentKitArchive
import DocumentKitCore
import Foundation

extension BundleWriter {
    /// Writes a copy of the format-3 bundle `bundle` without superseded bytes
    /// (`docctl pack`, FORMAT.md §12.4): adjacent segments whose stored sizes add up to at
    /// most the merge limit merged into one, their items in order and nothing decoded but
    /// the blocks, larger ones copied as they are; the head's document checked against its
    /// digest; the objects stored alone and `state.json` copied as they are. The cost of a
    /// copy, holding at most one merge's items: merging a history of 100,000 versions into
    /// one segment held 230 MiB and took 3.8 s; listing it, as a rewrite from a listing
    /// does, took 2.5 s at 10,000 versions and, losing the trees found by place, made the
    /// copy 15% larger than the bundle.
    package static func writePacked(_ bundle: DocumentBundle, to destination: URL, replace: Bool) throws {
        guard let history = bundle.history, !history.segments.isEmpty else {
            preconditionFailure("writePacked copies a format-3 history")
        }
        let segments = history.segments
        let entries = try segments.map { segment in
            guard let entry = bundle.zip.entry(named: segment.name) else {
                throw DocumentKitError(
                    .malformedInput, "manifest.json names segment '\(segment.name)', which the bundle lacks",
                    path: bundle.url.relativePath)
            }
            return entry
        }
        let runs = HistoryPolicy.packRuns(sizes: entries.map(\.size))
        let alone = try DocumentKitError.located(at: bundle.url.relativePath) { try history.aloneObjectEntryNames() }
        var manifest = history.manifest
        manifest.freeSlot = nil  // a bundle written whole has no superseded bytes
        manifest.history = runs.map {
            HistoryManifest.segmentName(
                first: segments[$0.lowerBound].places.lowerBound, last: segments[$0.upperBound].places.upperBound)
        }
        let document = try bundle.checkedHeadDocumentEntry()

        if replace { try AtomicReplacement.refuseReadOnly(destination) }
        try writeWhole(to: destination, replace: replace) { zip in
            try zip.addEntry(name: BundleEntry.mimetype, data: Data(bundle.mimeType.utf8))
            try zip.copyEntry(document, from: bundle.zip)
            for name in alone {
                guard let entry = bundle.zip.entry(named: name) else {
                    throw DocumentKitError(
                        .malformedInput,
                        """
                        the history stores object \(name.dropFirst(BundleEntry.objectsPrefix.count)) in an entry \
                        the bundle lacks
                        """,
                        path: bundle.url.relativePath)
                }
                try zip.copyEntry(entry, from: bundle.zip)
            }
            for (run, name) in Swift.zip(runs, manifest.history) {
                guard run.count > 1 else {
                    try zip.copyEntry(entries[run.lowerBound], from: bundle.zip)
                    continue
                }
                let merged = try DocumentKitError.located(at: bundle.url.relativePath) {
                    try HistorySegment.Builder.merging(segments[run].map(\.reader))
                }
                try zip.addEntry(name: name, data: merged)
            }
            try zip.addEntry(name: BundleEntry.manifest, data: try manifest.encoded())
            if let state = bundle.zip.entry(named: BundleEntry.state) { try zip.copyEntry(state, from: bundle.zip) }
        }
    }
}
