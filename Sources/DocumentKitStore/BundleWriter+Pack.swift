import DocumentKitArchive
import DocumentKitCore
import Foundation

extension BundleWriter {
    /// Writes a copy of the format-3 bundle `bundle` without superseded bytes
    /// (`docctl pack`): its segments merged into one, their items in order and nothing
    /// decoded but the blocks (FORMAT.md §12.4), the head's document checked against its
    /// digest, the objects stored alone and `state.json` copied as they are. A copy of
    /// the whole bundle, so the cost of a copy: listing the history and looking up each
    /// object by digest, as a rewrite from a listing does, took 2.5 s at 10,000 versions
    /// and, losing the trees found by place, made the copy 15% larger than the bundle.
    package static func writePacked(_ bundle: DocumentBundle, to destination: URL, replace: Bool) throws {
        guard let history = bundle.history, let first = history.segments.first else {
            preconditionFailure("writePacked copies a format-3 history")
        }
        let segment = try DocumentKitError.located(at: bundle.url.relativePath) {
            try HistorySegment.Builder.merging(history.segments.map(\.reader))
        }
        // The objects stored alone are those whose items say so: the entries to copy.
        let mergedReader = try HistorySegment.Reader(data: segment, identify: BundleVersion.id(ofSegmentRecord:))
        var alone = Set<String>()
        for case .object(let object) in try mergedReader.items(identified: false) {
            if case .entry = object.storage { alone.insert(object.digest.entryName) } else { alone.remove(object.digest.entryName) }
        }
        var manifest = history.manifest
        manifest.history = [HistoryManifest.segmentName(first: first.places.lowerBound, last: history.lastPlace)]
        let document = try bundle.documentData(of: bundle.headVersion)

        if replace { try AtomicReplacement.refuseReadOnly(destination) }
        try writeWhole(to: destination, replace: replace) { zip in
            try zip.addEntry(name: BundleEntry.mimetype, data: Data(bundle.mimeType.utf8))
            try zip.addEntry(name: BundleEntry.document, data: document)
            for name in alone.sorted() {
                guard let entry = bundle.zip.entry(named: name) else {
                    throw DocumentKitError(.malformedInput, "the history stores object \(name.dropFirst(BundleEntry.objectsPrefix.count)) in an entry the bundle lacks", path: bundle.url.relativePath)
                }
                try zip.copyEntry(entry, from: bundle.zip)
            }
            try zip.addEntry(name: manifest.history[0], data: segment)
            try zip.addEntry(name: BundleEntry.manifest, data: try manifest.encoded())
            if let state = bundle.zip.entry(named: BundleEntry.state) { try zip.copyEntry(state, from: bundle.zip) }
        }
    }
}
