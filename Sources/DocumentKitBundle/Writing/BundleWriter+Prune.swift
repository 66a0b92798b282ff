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
    /// when it is `nil` (a dry run).
    ///
    /// Every item goes into the new segment as it is read, a block at a time: what a prune
    /// holds is the segment it makes, the objects carried from dropped versions, and the
    /// documents made whole, compressed. At 10,000 versions a listing took 90 MB, and
    /// holding the kept items 69 MiB for `--before` keeping 2,800 of them.
    package static func writePruned(
        _ bundle: DocumentBundle, throughPlace lastDropped: Int, reachable: Set<ObjectDigest>,
        compression: ObjectCompression, to destination: URL?
    ) throws -> HistoryPruneOutcome {
        guard let history = bundle.history else { preconditionFailure("writePruned prunes a format-3 history") }
        var outcome = HistoryPruneOutcome()
        let firstKept = history.manifest.pruned + 1 + max(0, lastDropped - history.manifest.pruned)
        if lastDropped > history.manifest.pruned { outcome.removedPlaces = (history.manifest.pruned + 1)...lastDropped }
        var kept = KeptHistory(
            bundle: bundle, reachable: reachable, compression: compression,
            builder: destination.map { _ in HistorySegment.Builder(firstPlace: UInt64(firstKept)) })
        var place = history.manifest.pruned
        for segment in history.segments {
            for block in 0..<segment.reader.blockCount {
                for item in try BundleHistory.inSegment(
                    segment.name, { try segment.reader.items(inBlock: block, keepingTheBlock: false) })
                {
                    switch item {
                    case .pruned:
                        try kept.builder?.append(item)
                    case .version(let id, _):
                        place += 1
                        if place <= lastDropped { try kept.builder?.append(.pruned(id)) } else { try kept.append(item) }
                    case .object(let object):
                        guard reachable.contains(object.digest) else {
                            outcome.removedObjects += 1
                            outcome.freedBytes += object.record.storedSize
                            continue
                        }
                        // Objects come before the record of the version that stored them.
                        if place + 1 > lastDropped { try kept.append(item) } else { kept.carry(object) }
                    }
                }
            }
        }
        guard let destination, var builder = try kept.finish() else { return outcome }
        let document = try bundle.checkedHeadDocumentEntry()

        var manifest = history.manifest
        manifest.freeSlot = nil  // a bundle written whole has no superseded bytes
        let origin = manifest.chainOrigin
        manifest.chainOrigin = origin >= firstKept && origin <= history.lastPlace ? origin : history.lastPlace
        manifest.pruned = lastDropped
        manifest.versions = history.lastPlace - lastDropped
        manifest.history = [HistoryManifest.segmentName(first: firstKept, last: history.lastPlace)]
        manifest.objects = kept.stored
        let segment = try builder.finish()
        let entries = Set(kept.copied.keys).union(kept.whole.keys).sorted()
        // What the write counts, for its progress: every entry's bytes.
        let total =
            entries.reduce(document.size + UInt64(bundle.mimeType.utf8.count + segment.count)) { total, digest in
                total + (kept.copied[digest]?.size ?? UInt64(kept.whole[digest]?.count ?? 0))
            } + (bundle.zip.entry(named: BundleEntry.state)?.size ?? 0)

        try AtomicReplacement.refuseReadOnly(destination)
        try ProgressMeter.phase(.writing, counting: .written, totalBytes: total) {
            try writeWhole(to: destination, replace: true) { zip in
                try zip.addEntry(name: BundleEntry.mimetype, data: Data(bundle.mimeType.utf8))
                try zip.copyEntry(document, from: bundle.zip)
                for digest in entries {
                    if let entry = kept.copied[digest] {
                        try zip.copyEntry(entry, from: bundle.zip)
                    } else if let stored = kept.whole[digest] {
                        try zip.addEntry(name: digest.entryName, data: stored)
                    }
                }
                try zip.addEntry(name: manifest.history[0], data: segment)
                try zip.addEntry(name: BundleEntry.manifest, data: try manifest.encoded())
                if let state = bundle.zip.entry(named: BundleEntry.state) { try zip.copyEntry(state, from: bundle.zip) }
            }
        }
        return outcome
    }

    /// What a prune keeps, as it reads it: the new segment (none for a dry run), the
    /// objects carried from dropped versions until the first kept item, and the entries
    /// the kept objects need.
    private struct KeptHistory {
        let bundle: DocumentBundle
        let reachable: Set<ObjectDigest>
        let compression: ObjectCompression
        var builder: HistorySegment.Builder?
        /// The objects the kept items store, as the new manifest counts them.
        var stored = HistoryManifest.ObjectCounts()
        /// Entries of objects stored alone, copied as they are.
        var copied: [ObjectDigest: StoredZipEntry] = [:]
        /// Objects of 64 KiB or more whose delta base goes, made whole: their entries' bytes.
        var whole: [ObjectDigest: Data] = [:]
        private var carried: [HistorySegment.ObjectItem] = []
        private var carriedDigests = Set<ObjectDigest>()
        private var carriedWritten = false

        init(
            bundle: DocumentBundle, reachable: Set<ObjectDigest>, compression: ObjectCompression,
            builder: HistorySegment.Builder?
        ) {
            self.bundle = bundle
            self.reachable = reachable
            self.compression = compression
            self.builder = builder
        }

        /// Keeps an object a dropped version stored, for the kept versions after.
        mutating func carry(_ object: HistorySegment.ObjectItem) {
            guard carriedDigests.insert(object.digest).inserted else { return }
            var object = object
            // Its version's record is gone: it is found by its digest now.
            object.foundByPlace = false
            // Its bytes are a slice of the decoded block they came in: copied, so that the
            // block goes (carrying a document's chain of 60 deltas held 60 blocks, 13 MB).
            switch object.storage {
            case .identity(let data): object.storage = .identity(data.withUnsafeBytes { Data($0) })
            case .delta(let base, let program):
                object.storage = .delta(base: base, program: program.withUnsafeBytes { Data($0) })
            case .entry: break
            }
            carried.append(object)
        }

        /// Appends a kept item, after the carried objects.
        mutating func append(_ item: HistorySegment.Item) throws {
            try writeCarried()
            guard case .object(let object) = item else { return try builder?.append(item) ?? () }
            try appendObject(object)
        }

        /// The segment's builder once every item is in, `nil` for a dry run.
        mutating func finish() throws -> HistorySegment.Builder? {
            try writeCarried()
            return builder
        }

        private mutating func writeCarried() throws {
            guard !carriedWritten else { return }
            carriedWritten = true
            for object in carried { try appendObject(object) }
            carried = []
        }

        /// Appends an object as the new segment holds it: whole when its delta base goes
        /// (in the item under 64 KiB, else in an entry of its own), else as it was.
        private mutating func appendObject(_ object: HistorySegment.ObjectItem) throws {
            guard builder != nil else { return }
            var object = object
            if let base = object.record.base, !reachable.contains(base) {
                let data = try bundle.objectData(object.digest)
                if object.size < UInt64(smallObjectLimit) {
                    object.storage = .identity(data)
                } else {
                    let (bytes, record) =
                        compression == .zstd && object.size <= inMemoryCompressionLimit
                        ? try storedForm(of: data)
                        : (data, ObjectRecord(size: object.size, codec: .identity, storedSize: object.size))
                    whole[object.digest] = bytes
                    object.storage = .entry(codec: record.codec, storedSize: record.storedSize, base: nil)
                }
            } else if case .entry = object.storage, let entry = bundle.zip.entry(named: object.digest.entryName) {
                copied[object.digest] = entry
            }
            stored.add(object.record)
            try builder?.append(.object(object))
        }
    }
}
