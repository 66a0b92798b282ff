import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension BundleWriter {
    /// An object a format-3 bundle stores alone, as the entry `objects/…`.
    enum AloneObject {
        /// One another bundle (the base, or the copy a pull reads) stores alone: its entry is
        /// copied as it is.
        case carried(StoredZipEntry, from: DocumentBundle)
        /// A new one, written by `writeObject`.
        case written(TreePlanner.PendingObject)
    }

    /// A whole history made into format 3's parts: the items of one segment (pruned ids,
    /// objects, version records) and the objects stored alone, whose items (but those of
    /// the objects still to be written) are among `items`.
    struct SegmentedHistory {
        var items: [HistorySegment.Item] = []
        var alone: [ObjectDigest: AloneObject] = [:]
    }

    /// Lays out a history listed as format 2 lists it (`versions`, `pruned` ids and the
    /// digests of its `objects`) for a format-3 bundle: each object an item of the segment
    /// when it is small (a delta by its program, whose block compresses it), or stored
    /// alone; new objects from `newObjects`, every other one from `base` (FORMAT.md §12.4).
    ///
    /// Nothing is re-encoded: objects keep their codecs and bases. Small objects taken out
    /// of entries are checked first (against their digests, a delta program against its
    /// entry's CRC-32), so a rewrite never carries damaged bytes on as sound.
    static func segmentedHistory(
        versions: [BundleVersion], pruned: [VersionID], objects: some Sequence<ObjectDigest>,
        newObjects: [ObjectDigest: TreePlanner.PendingObject], sizes: [ObjectDigest: UInt64],
        base: DocumentBundle?
    ) throws -> SegmentedHistory {
        var history = SegmentedHistory(items: pruned.map { .pruned($0) })
        for digest in Set(objects).union(newObjects.keys).sorted() {
            let item: HistorySegment.ObjectItem?
            switch newObjects[digest] {
            case .data(let data)?:
                item =
                    data.count < smallObjectLimit
                    ? .init(digest: digest, size: UInt64(data.count), storage: .identity(data)) : nil
            case .file(let file)? where (sizes[digest] ?? .max) < UInt64(smallObjectLimit):
                let data = try file.regularFileContents()
                guard ObjectDigest.of(data) == digest else { throw changedFile(digest) }
                item = .init(digest: digest, size: UInt64(data.count), storage: .identity(data))
            case .encoded(let stored, let record)? where record.codec == .delta && record.base != nil:
                let program = try ZstdCodec.decompress(stored, maxSize: Int(record.size) + ObjectDelta.maxOverhead)
                item =
                    program.count < smallObjectLimit
                    ? .init(digest: digest, size: record.size, storage: .delta(base: record.base!, program: program))
                    : nil
            case .copied(let source)?:
                item = try carriedItem(digest, from: source, alone: &history.alone)
            case nil:
                guard let base else {
                    throw DocumentKitError(
                        .malformedInput,
                        "object \(digest.short) is listed, but neither written now nor in a bundle to copy it from")
                }
                item = try carriedItem(digest, from: base, alone: &history.alone)
            default:
                item = nil
            }
            if let item {
                history.items.append(.object(item))
            } else {
                history.alone[digest] = .written(newObjects[digest]!)
            }
        }
        for version in versions {
            history.items.append(.version(id: version.id, record: try version.segmentRecord()))
        }
        return history
    }

    /// Object `digest` of `bundle` as an item of the segment being made: its bytes or
    /// program, or when it stays an entry of its own (recorded in `alone`) that entry's record.
    private static func carriedItem(
        _ digest: ObjectDigest, from bundle: DocumentBundle,
        alone: inout [ObjectDigest: AloneObject]
    ) throws -> HistorySegment.ObjectItem {
        let stored = try bundle.storedObject(digest)
        let record = stored.record
        switch stored.location {
        case .item(let bytes) where record.codec == .delta:
            return .init(digest: digest, size: record.size, storage: .delta(base: record.base!, program: bytes))
        case .item:
            return .init(
                digest: digest, size: record.size, storage: .identity(try bundle.validateObject(digest, base: nil)))
        case .entry(let entry):
            if record.codec == .delta, record.storedSize < UInt64(smallObjectLimit), let deltaBase = record.base {
                let program = try bundle.deltaProgram(digest)
                if program.count < smallObjectLimit {
                    return .init(digest: digest, size: record.size, storage: .delta(base: deltaBase, program: program))
                }
            } else if record.codec != .delta, record.size < UInt64(smallObjectLimit) {
                return .init(
                    digest: digest, size: record.size, storage: .identity(try bundle.validateObject(digest, base: nil)))
            }
            alone[digest] = .carried(entry, from: bundle)
            return .init(
                digest: digest, size: record.size,
                storage: .entry(codec: record.codec, storedSize: record.storedSize, base: record.base))
        }
    }

    /// Writes `contents` in format 3 after `mimetype` (FORMAT.md §12.1): `document.json`,
    /// the objects stored alone, one segment holding the rest of the history, the manifest
    /// and the base's `state.json`. What a rewrite of a whole history (a prune, a pack, a
    /// pull, an import) writes; a save appends instead (`writeHistoryEntries`).
    static func writeSegmentedContents(
        _ contents: Contents, to zip: StoredZipWriter,
        carry: (StoredZipEntry, DocumentBundle) throws -> Void
    ) throws {
        let listed = contents.manifest
        guard let head = listed.versions.last, head.id == listed.head else {
            throw DocumentKitError(.malformedInput, "the head must be the last version (FORMAT.md §3)")
        }
        var history = try segmentedHistory(
            versions: listed.versions, pruned: listed.pruned, objects: listed.objects.keys,
            newObjects: contents.newObjects, sizes: contents.sizes, base: contents.base)
        try zip.addEntry(name: BundleEntry.document, data: contents.document)
        let written = try writeAlone(history.alone, contents: contents, to: zip, carry: carry)
        // Pruned ids first, then the objects, then the records (FORMAT.md §12.2).
        let prunedCount = listed.pruned.count
        history.items.insert(contentsOf: written, at: prunedCount)
        let start = HistoryManifest(
            contentType: listed.contentType, head: "", versions: 0, pruned: prunedCount, history: [],
            chainOrigin: chainOrigin(keeping: contents.base, firstPlace: prunedCount + 1, head: head.number))
        let added = try HistoryAppend(
            history.items, versionCount: listed.versions.count, head: head.id, to: start, segments: [],
            identify: BundleVersion.id(ofSegmentRecord:))
        try zip.addEntry(name: added.written.name, data: added.written.data)
        try zip.addEntry(name: BundleEntry.manifest, data: try added.manifest.encoded())
        if let base = contents.base, let state = base.zip.entry(named: BundleEntry.state) {
            try carry(state, base)
        }
    }

    /// Writes the objects stored alone, in their entries' order: the carried ones passed to
    /// `carry` when they are the base's (kept in place, or copied), copied from the other
    /// copy otherwise. Returns the items of the ones written now, whose records are known
    /// only once they are.
    static func writeAlone(
        _ alone: [ObjectDigest: AloneObject], contents: Contents, to zip: StoredZipWriter,
        carry: (StoredZipEntry, DocumentBundle) throws -> Void
    ) throws -> [HistorySegment.Item] {
        var written: [HistorySegment.Item] = []
        for (digest, object) in alone.sorted(by: { $0.key < $1.key }) {
            switch object {
            case .carried(let entry, let source):
                try source === contents.base ? carry(entry, source) : zip.copyEntry(entry, from: source.zip)
            case .written(let pending):
                let record = try writeObject(
                    digest, pending, size: contents.sizes[digest] ?? 0, compression: contents.compression,
                    compressing: contents.compressing[digest], to: zip)
                written.append(
                    .object(
                        .init(
                            digest: digest, size: record.size,
                            storage: .entry(codec: record.codec, storedSize: record.storedSize, base: record.base))))
            }
        }
        return written
    }

    /// The chain origin of a rewritten history: the base's while its version stays (a
    /// prune that keeps it, a pack, a pull), so that chains stay as `HistoryPolicy` bounds
    /// them; otherwise the head's place, the next save's document starting a chain from it.
    private static func chainOrigin(keeping base: DocumentBundle?, firstPlace: Int, head: Int) -> Int {
        guard let origin = base?.history?.manifest.chainOrigin, origin >= firstPlace, origin <= head else {
            return head
        }
        return origin
    }
}
