import DocumentKitArchive
import DocumentKitCore
import Foundation

extension BundleWriter {
    /// What a prune of a format-3 history removes.
    package struct HistoryPruneOutcome: Equatable {
        /// The places of the versions removed.
        package var removedPlaces: ClosedRange<Int>?
        /// How many objects no kept version uses, and their stored bytes.
        package var removedObjects = 0
        package var freedBytes: UInt64 = 0
    }

    /// Prunes a format-3 history (FORMAT.md §12.4) from its segments' items, read once in
    /// order and never listed: the versions up to place `lastDropped` become pruned ids,
    /// the objects none of `reachable` names go, the ones the dropped versions stored that
    /// kept versions use come first (indexed by digest, since their versions' records are
    /// gone), then the kept items as they were, trees found by place and all. A delta whose
    /// base goes is stored whole. Writes to `destination` as a rewrite does, or nothing
    /// when it is `nil` (a dry run). What `docctl prune --keep N` costs is then a read of
    /// the history and a write of what stays: at 10,000 versions a listing took 90 MB.
    package static func writePruned(_ bundle: DocumentBundle, throughPlace lastDropped: Int, reachable: Set<ObjectDigest>,
                                    compression: ObjectCompression, to destination: URL?) throws -> HistoryPruneOutcome {
        guard let history = bundle.history else { preconditionFailure("writePruned prunes a format-3 history") }
        var outcome = HistoryPruneOutcome()
        let firstKept = history.manifest.pruned + 1 + max(0, lastDropped - history.manifest.pruned)
        // The pruned ids go into the new segment as they are met, first, as its format
        // wants them (at 100,000 versions, holding them as items took 10 MB).
        var builder = destination.map { _ in HistorySegment.Builder(firstPlace: UInt64(firstKept)) }
        var carried: [HistorySegment.Item] = []
        var carriedDigests = Set<ObjectDigest>()
        var kept: [HistorySegment.Item] = []
        var place = history.manifest.pruned
        // A block at a time, so that the dropped versions' items are never all held.
        for segment in history.segments {
            for block in 0..<segment.reader.blockCount {
                for item in try BundleHistory.inSegment(segment.name, { try segment.reader.items(inBlock: block) }) {
                    switch item {
                    case .pruned:
                        try builder?.append(item)
                    case .version(let id, _):
                        place += 1
                        if place <= lastDropped { try builder?.append(.pruned(id)) } else { kept.append(item) }
                    case .object(var object):
                        guard reachable.contains(object.digest) else {
                            outcome.removedObjects += 1
                            outcome.freedBytes += object.record.storedSize
                            continue
                        }
                        // Objects come before the record of the version that stored them.
                        if place + 1 > lastDropped {
                            kept.append(item)
                        } else if carriedDigests.insert(object.digest).inserted {
                            object.foundByPlace = false
                            carried.append(.object(object))
                        }
                    }
                }
            }
        }
        if lastDropped > history.manifest.pruned { outcome.removedPlaces = (history.manifest.pruned + 1)...lastDropped }
        guard let destination, var builder else { return outcome }

        let document = try bundle.documentData(of: bundle.headVersion)
        var items = carried + kept
        // Objects stored alone: copied, or (a delta whose base goes, too large for an item)
        // decoded and written whole, one at a time, so that a prune holds one document.
        var carriedEntries: [ObjectDigest: StoredZipEntry] = [:]
        var whole = Set<ObjectDigest>()
        for index in items.indices {
            guard case .object(var object) = items[index] else { continue }
            if let base = object.record.base, !reachable.contains(base) {
                if object.size < UInt64(smallObjectLimit) {
                    object.storage = .identity(try bundle.objectData(object.digest))
                    items[index] = .object(object)
                } else {
                    whole.insert(object.digest)
                }
            } else if case .entry = object.storage, let entry = bundle.zip.entry(named: object.digest.entryName) {
                carriedEntries[object.digest] = entry
            }
        }

        var manifest = history.manifest
        let origin = manifest.chainOrigin
        manifest.chainOrigin = origin >= firstKept && origin <= history.lastPlace ? origin : history.lastPlace
        manifest.pruned = lastDropped
        manifest.versions = history.lastPlace - lastDropped
        manifest.history = [HistoryManifest.segmentName(first: firstKept, last: history.lastPlace)]
        // What the write counts, for its progress (only when someone watches): the entries'
        // bytes, the whole documents at their size, and the history's segments as they are
        // (the new one holds less).
        func bytesToWrite() -> UInt64 {
            let entries = carriedEntries.values.reduce(0) { $0 + $1.size } + (bundle.zip.entry(named: BundleEntry.state)?.size ?? 0)
            let objects = items.reduce(UInt64(0)) { total, item in
                guard case .object(let object) = item, whole.contains(object.digest) else { return total }
                return total + object.size
            }
            let segments = history.segments.reduce(UInt64(0)) { $0 + (bundle.zip.entry(named: $1.name)?.size ?? 0) }
            return UInt64(document.count + bundle.mimeType.utf8.count) + entries + objects + segments
        }

        try AtomicReplacement.refuseReadOnly(destination)
        try ProgressMeter.phase(.writing, counting: .written, totalBytes: bytesToWrite()) {
            try writeWhole(to: destination, replace: true) { zip in
                try zip.addEntry(name: BundleEntry.mimetype, data: Data(bundle.mimeType.utf8))
                try zip.addEntry(name: BundleEntry.document, data: document)
                var rewritten: [ObjectDigest: HistorySegment.ObjectItem] = [:]
                for digest in whole.union(carriedEntries.keys).sorted() {
                    if let entry = carriedEntries[digest] {
                        try zip.copyEntry(entry, from: bundle.zip)
                        continue
                    }
                    let data = try bundle.objectData(digest)
                    let record = try writeObject(digest, .data(data), size: UInt64(data.count), compression: compression,
                                                 compressing: nil, to: zip)
                    rewritten[digest] = .init(digest: digest, size: record.size,
                                              storage: .entry(codec: record.codec, storedSize: record.storedSize, base: record.base))
                }
                for index in items.indices {
                    if case .object(let object) = items[index], let item = rewritten[object.digest] { items[index] = .object(item) }
                }
                manifest.objects = HistoryManifest.ObjectCounts()
                for case .object(let object) in items { manifest.objects.add(object.record) }
                for item in items { try builder.append(item) }
                try zip.addEntry(name: manifest.history[0], data: try builder.finish())
                try zip.addEntry(name: BundleEntry.manifest, data: try manifest.encoded())
                if let state = bundle.zip.entry(named: BundleEntry.state) { try zip.copyEntry(state, from: bundle.zip) }
            }
        }
        return outcome
    }
}
