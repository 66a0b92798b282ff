import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension BundleWriter {
    /// Objects smaller than this are items of the version's segment (FORMAT.md §12
    /// §3), where their block's compression covers them; larger ones are entries of their own.
    package static let smallObjectLimit = 64 << 10

    /// A format-3 save of one version, planned: what goes into the new segment and what is
    /// stored alone, before anything is written.
    struct HistorySave {
        var request: Request
        /// The version the save makes; `nil` for a fast-forward, which only adds another
        /// copy's versions.
        var version: BundleVersion?
        /// The head after the save.
        var head: VersionID
        var document: Data
        /// What a pull adds before `version`: another copy's objects and versions, as
        /// items and entries to copy from it.
        var incoming = SegmentedHistory()
        var incomingVersions = 0
        /// Objects stored as items, in the order they go into the segment.
        var items: [HistorySegment.ObjectItem] = []
        /// Objects stored alone, as entries; their items are made as they are written.
        var alone: [ObjectDigest: TreePlanner.PendingObject] = [:]
        var sizes: [ObjectDigest: UInt64] = [:]
        /// The place of the version whose document starts the delta chains.
        var chainOrigin: Int
    }

    /// Plans a format-3 save of `version`: each new object an item or an entry by its
    /// size, the root tree an item found by its place, and the document a forward delta
    /// against the one `HistoryPolicy` names (FORMAT.md §12.3), stored whole when it
    /// starts the chain or when the delta would not be much smaller.
    static func planHistorySave(
        _ request: Request, version: BundleVersion, planner: TreePlanner, document: Data,
        documentDigest: ObjectDigest?, baseDocument: (digest: ObjectDigest, data: Data)?
    ) throws -> HistorySave {
        let base = request.base
        let origin = base?.history?.manifest.chainOrigin ?? version.number
        var save = HistorySave(
            request: request, version: version, head: version.id, document: document, sizes: planner.sizes,
            chainOrigin: origin)
        if let incoming = request.incoming {
            save.incoming = try incomingHistory(incoming)
            save.incomingVersions = incoming.versions.count
        }
        let copied = Set(request.incoming?.objects ?? [])
        for (digest, pending) in planner.pending.sorted(by: { $0.key < $1.key })
        where digest != version.tree && digest != documentDigest && !copied.contains(digest) {
            let size = planner.sizes[digest] ?? 0
            if case .data(let data) = pending, size < UInt64(smallObjectLimit) {
                save.items.append(.init(digest: digest, size: size, storage: .identity(data)))
            } else {
                save.alone[digest] = pending
            }
        }
        if let documentDigest, planner.pending[documentDigest] != nil, !copied.contains(documentDigest) {
            let delta = try forwardDelta(
                of: document, place: version.number, origin: origin, in: base, headDocument: baseDocument)
            if let (baseDigest, program) = delta, program.count < smallObjectLimit {
                save.items.append(
                    .init(
                        digest: documentDigest, size: UInt64(document.count),
                        storage: .delta(base: baseDigest, program: program)))
            } else if let (baseDigest, program) = delta {
                let stored = try ZstdCodec.compress(program)
                save.alone[documentDigest] = .encoded(
                    stored,
                    ObjectRecord(
                        size: UInt64(document.count), codec: .delta,
                        storedSize: UInt64(stored.count), base: baseDigest))
            } else if document.count < smallObjectLimit {
                save.items.append(
                    .init(digest: documentDigest, size: UInt64(document.count), storage: .identity(document)))
            } else {
                save.alone[documentDigest] = .data(document)
            }
        }
        if case .data(let tree)? = planner.pending[version.tree], !copied.contains(version.tree) {
            save.items.append(
                .init(digest: version.tree, size: UInt64(tree.count), storage: .identity(tree), foundByPlace: true))
        }
        return save
    }

    /// Another copy's versions and objects, laid out as a format-3 save adds them: small
    /// objects as items, the others as entries copied from that copy, then the records.
    static func incomingHistory(_ incoming: Incoming) throws -> SegmentedHistory {
        try segmentedHistory(
            versions: incoming.versions, pruned: [], objects: incoming.objects, newObjects: [:], sizes: [:],
            base: incoming.source)
    }

    /// Whether a pull can append `incoming` to `base`'s history: the base is of format 3,
    /// and the other copy pruned none of the parents it brings (pruned ids are counted
    /// before every version, so they would renumber the base's).
    static func appendsIncoming(_ incoming: Incoming, to base: DocumentBundle) -> Bool {
        base.history != nil && incoming.pruned.isEmpty
    }

    /// The base document and program of the forward delta that stores `document`, the
    /// document of the version at `place`; `nil` when it is stored whole: it starts the
    /// chain, or the delta saves less than half.
    private static func forwardDelta(
        of document: Data, place: Int, origin: Int, in base: DocumentBundle?,
        headDocument: (digest: ObjectDigest, data: Data)?
    ) throws -> (ObjectDigest, Data)? {
        guard let base, let baseIndex = HistoryPolicy.deltaBase(ofDocument: place - origin),
            UInt64(document.count) <= inMemoryCompressionLimit
        else { return nil }
        let basePlace = origin + baseIndex
        let baseDocument: (digest: ObjectDigest, data: Data)
        // After a pull's versions, which the base does not hold yet, the delta is against
        // the base's head: as short a chain, and a document at hand.
        if basePlace >= base.places.upperBound, let headDocument {
            baseDocument = headDocument
        } else if let headDocument,
            let folded = try foldedDelta(of: document, place: basePlace, in: base, headDocument: headDocument)
        {
            return folded
        } else {
            guard let baseVersion = try base.version(atPlace: basePlace) else { return nil }
            let digest = try base.documentDigest(of: baseVersion)
            baseDocument = (digest, try base.objectData(digest))
        }
        let program = ObjectDelta.encode(target: document, base: baseDocument.data)
        guard program.count * 2 <= document.count else { return nil }
        return (baseDocument.digest, program)
    }

    /// The forward delta of `document` against the document at `basePlace`, made without
    /// reading that document: the head's delta chain passes through it (a chain drops one
    /// base-16 digit of the place at a time, and the base is the place with the new
    /// place's lowest nonzero digit cleared), so its programs from there to the head,
    /// folded with the head-to-new program, are that delta. `nil` when the chain does not
    /// reach it (a history made before, or another writer's).
    private static func foldedDelta(
        of document: Data, place basePlace: Int, in base: DocumentBundle,
        headDocument: (digest: ObjectDigest, data: Data)
    ) throws -> (ObjectDigest, Data)? {
        guard let baseVersion = try base.version(atPlace: basePlace) else { return nil }
        let baseDigest = try base.documentDigest(of: baseVersion)
        guard let chain = try base.deltaChain(from: headDocument.digest, to: baseDigest) else { return nil }
        let last = ObjectDelta.encode(target: document, base: headDocument.data)
        let step = try DeltaInstructions(program: last, baseSize: headDocument.data.count, expectedSize: document.count)
        let program = DeltaInstructions.folded(chain + [step]).program
        return program.count * 2 <= document.count ? (baseDigest, program) : nil
    }

    /// Writes a planned format-3 save: in place, appending to a format-3 base, when the
    /// request allows it; otherwise the whole bundle, with the base's segments and objects
    /// copied as they are (an upgrade of a format-1 or 2 base writes its whole history
    /// into one segment).
    static func writeHistory(_ save: HistorySave) throws {
        let request = save.request
        if request.replace { try AtomicReplacement.refuseReadOnly(request.destination) }
        let carried = try carriedHistory(of: request.base)
        let placement = request.base.flatMap { appendPlacement(save, to: $0) }
        try ProgressMeter.phase(
            .writing, counting: .written, totalBytes: bytesToWrite(save, carried: carried, appending: placement != nil)
        ) {
            if let placement, let base = request.base,
                try appendHistory(save, carried: carried, to: base, placement: placement)
            {
                return
            }
            let output = try AtomicReplacement(destination: request.destination)
            let zip = StoredZipWriter(fileDescriptor: output.file.descriptor, path: request.destination.relativePath)
            try DocumentKitError.located(at: request.destination.relativePath) {
                try zip.addEntry(name: BundleEntry.mimetype, data: Data(request.mimeType.utf8))
                // A save that rewrites leaves room after the document, so that the one after
                // next finds a slot its document fits (FORMAT.md §12.4).
                try writeHistoryEntries(
                    save, carried: carried, to: zip, appending: false, placement: nil,
                    roomAfterDocument: request.inPlace && request.base != nil)
                try zip.finish()
            }
            if request.replace {
                try commitReplacing(output)
            } else {
                try output.commitWithoutReplacing(mode: AtomicReplacement.defaultMode())
            }
        }
    }

    /// The bytes of `base` an append of a format-3 save leaves unused: the central
    /// directory, the document and the manifest. (Segments a merge supersedes are counted
    /// by the next save, which sees them unused.) `nil` when the base lacks either entry.
    private static func supersededByHistorySave(in base: DocumentBundle) -> UInt64? {
        guard let document = base.zip.entry(named: BundleEntry.document),
            let manifest = base.zip.entry(named: BundleEntry.manifest)
        else { return nil }
        return (base.zip.length - base.zip.centralDirectoryOffset)
            + [document, manifest].reduce(0) { $0 + $1.dataEnd - $1.localHeaderOffset }
    }

    /// Where the save's document goes when it may append to its base in place, as far as
    /// can be told without opening the file (`append` checks again): a format-3 base, of
    /// the same MIME type, at the destination, which the append would not leave more than
    /// a third superseded. `nil` when the save rewrites the bundle.
    private static func appendPlacement(_ save: HistorySave, to base: DocumentBundle) -> DocumentPlacement? {
        let request = save.request
        guard request.inPlace, base.history != nil, base.mimeType == request.mimeType,
            let superseded = supersededByHistorySave(in: base),
            let placement = DocumentPlacement(for: save.document, in: base),
            AtomicReplacement.resolvingSymbolicLinks(request.destination).path
                == AtomicReplacement.resolvingSymbolicLinks(base.url).path,
            staysCompact(base, superseding: superseded + placement.appendedRoom, reclaiming: placement.reclaimedBytes)
        else { return nil }
        return placement
    }

    /// Appends the save to its format-3 base in place (see `append(to:destination:superseding:_:)`);
    /// `false` when the base should be rewritten instead.
    private static func appendHistory(
        _ save: HistorySave, carried: CarriedHistory, to base: DocumentBundle, placement: DocumentPlacement
    ) throws -> Bool {
        guard let superseded = supersededByHistorySave(in: base) else { return false }
        return try append(
            to: base, destination: save.request.destination, superseding: superseded + placement.appendedRoom,
            reclaiming: placement.reclaimedBytes, reusing: placement.slot
        ) { zip in
            try zip.keepEntry(base.zip.entries[0])
            try writeHistoryEntries(save, carried: carried, to: zip, appending: true, placement: placement)
        }
    }

    /// What a format-3 save writes, for its progress, known before it writes: the
    /// document, the objects stored alone (as they are; `writeObject` counts what their
    /// compression saves), the new segment's items as they are before their blocks are
    /// compressed, the segments it merges, and for a rewrite everything copied from the
    /// base. Writing the segment counts what its compression saved, so the phase ends at
    /// the total it announced.
    private static func bytesToWrite(_ save: HistorySave, carried: CarriedHistory, appending: Bool) -> UInt64 {
        var total = UInt64(save.document.count) + save.alone.keys.reduce(0) { $0 + (save.sizes[$1] ?? 0) }
        total += save.incoming.alone.values.reduce(0) { total, object in
            if case .carried(let entry, _) = object { total + entry.size } else { total }
        }
        total += segmentEstimate(save, carried: carried, appending: appending)
        if !appending { total += carried.entries.reduce(0) { $0 + $1.size } }
        return total
    }

    /// The bytes of the segment a save writes, estimated from its items before their
    /// blocks are compressed (and an index row each), with the segments it merges; for a
    /// rewrite, with every other segment of the base, which it copies.
    private static func segmentEstimate(_ save: HistorySave, carried: CarriedHistory, appending: Bool) -> UInt64 {
        var items: [HistorySegment.Item] = carried.items + save.incoming.items + save.items.map { .object($0) }
        if let version = save.version, let record = try? version.segmentRecord() {
            items.append(.version(id: version.id, record: record))
        }
        let estimate = items.reduce(UInt64(HistorySegment.trailerSize)) { total, item in
            let bytes: Int =
                switch item {
                case .version(_, let record): record.count
                case .pruned: 64
                case .object(let object):
                    switch object.storage {
                    case .identity(let data): data.count
                    case .delta(_, let program): program.count
                    case .entry: 0
                    }
                }
            return total + UInt64(bytes + 10 + HistorySegment.rowSize)
        }
        guard let base = save.request.base, let history = base.history else { return estimate }
        let sizes = history.segments.map { base.zip.entry(named: $0.name)?.size ?? 0 }
        let merged = HistoryPolicy.segmentsToMerge(sizes: sizes + [estimate])
        let copied = appending ? sizes.suffix(max(merged - 1, 0)) : sizes[...]
        return copied.reduce(estimate, +)
    }

    /// Writes everything after `mimetype` (FORMAT.md §12.1): `document.json`, the
    /// objects stored alone (the base's kept or copied, the save's written), the segments
    /// (the base's that stay, and the new one), `manifest.json` and the base's `state.json`.
    /// An append places `document.json` as `placement` says; a rewrite leaves room after
    /// it when `roomAfterDocument`.
    private static func writeHistoryEntries(
        _ save: HistorySave, carried: CarriedHistory, to zip: StoredZipWriter, appending: Bool,
        placement: DocumentPlacement?, roomAfterDocument: Bool = false
    ) throws {
        let request = save.request
        let base = request.base
        if let slot = placement?.slot {
            try zip.addEntry(name: BundleEntry.document, data: save.document, inSlot: slot)
        } else {
            try zip.addEntry(name: BundleEntry.document, data: save.document)
            let room =
                placement?.appendedRoom
                ?? (roomAfterDocument ? StoredZipSlot.roomAfterRewrite(forEntryOfSize: UInt64(save.document.count)) : 0)
            if room > 0 { try zip.addRoom(size: room) }
        }
        var items = carried.items
        var entries: [String: () throws -> Void] = [:]
        for entry in carried.entries {
            entries[entry.name] = { try appending ? zip.keepEntry(entry) : zip.copyEntry(entry, from: base!.zip) }
        }
        for (digest, object) in save.incoming.alone {
            guard case .carried(let entry, let source) = object else {
                preconditionFailure("a pull copies the other copy's entries")
            }
            entries[digest.entryName] = { try zip.copyEntry(entry, from: source.zip) }
        }
        var written: [ObjectDigest: ObjectRecord] = [:]
        for (digest, pending) in save.alone {
            entries[digest.entryName] = {
                written[digest] = try writeObject(
                    digest, pending, size: save.sizes[digest] ?? 0, compression: request.metadata.compression,
                    compressing: nil, to: zip)
            }
        }
        for name in entries.keys.sorted() { try entries[name]!() }
        for (digest, record) in written.sorted(by: { $0.key < $1.key }) {
            items.append(
                .object(
                    .init(
                        digest: digest, size: record.size,
                        storage: .entry(codec: record.codec, storedSize: record.storedSize, base: record.base))))
        }
        items += save.incoming.items
        items += save.items.map { .object($0) }
        if let version = save.version { items.append(.version(id: version.id, record: try version.segmentRecord())) }

        var segments: [HistoryAppend.Segment] = []
        let previous: HistoryManifest
        if let base, let history = base.history {
            previous = history.manifest
            for segment in history.segments {
                segments.append(
                    .init(name: segment.name, size: base.zip.entry(named: segment.name)!.size, reader: segment.reader))
            }
        } else {
            previous = HistoryManifest(
                contentType: request.contentType, head: "", versions: 0, pruned: carried.prunedCount, history: [])
        }
        var start = previous
        start.contentType = request.contentType
        start.chainOrigin = save.chainOrigin
        start.freeSlot = placement.map { [$0.superseded.lowerBound, $0.superseded.upperBound] }
        let added = try HistoryAppend(
            items, versionCount: carried.versionCount + save.incomingVersions + (save.version == nil ? 0 : 1),
            head: save.head, to: start, segments: segments,
            identify: BundleVersion.id(ofSegmentRecord:))
        // The segments the save does not merge stay as they are: kept in place, or copied
        // byte for byte into a rewritten bundle, whose rewrite then costs a copy.
        for segment in segments where !added.merged.contains(segment.name) {
            let entry = base!.zip.entry(named: segment.name)!
            try appending ? zip.keepEntry(entry) : zip.copyEntry(entry, from: base!.zip)
        }
        try zip.addEntry(name: added.written.name, data: added.written.data)
        // The estimate counted the segment's items as they are: count what compression saved.
        let estimate = segmentEstimate(save, carried: carried, appending: appending)
        let copied = appending ? 0 : segments.filter { !added.merged.contains($0.name) }.reduce(0) { $0 + $1.size }
        ProgressMeter.advance(
            .written, by: Int(clamping: Int64(estimate) - Int64(copied) - Int64(added.written.data.count)))
        try zip.addEntry(name: BundleEntry.manifest, data: try added.manifest.encoded())
        if let base, let state = base.zip.entry(named: BundleEntry.state) {
            try appending ? zip.keepEntry(state) : zip.copyEntry(state, from: base.zip)
        }
    }

    /// What a save carries over from its base besides its segments: the entries of the
    /// objects stored alone, and, from a format-1 or 2 base, its whole history as items,
    /// its manifest made into a segment (FORMAT.md §12.4, "Upgrade").
    typealias CarriedHistory = (
        entries: [StoredZipEntry], items: [HistorySegment.Item], versionCount: Int, prunedCount: Int
    )

    private static func carriedHistory(of base: DocumentBundle?) throws -> CarriedHistory {
        guard let base else { return ([], [], 0, 0) }
        if base.history != nil {
            return (base.zip.entries.filter { $0.name.hasPrefix(BundleEntry.objectsPrefix) }, [], 0, 0)
        }
        let manifest = base.decodedManifest
        let history = try segmentedHistory(
            versions: manifest.versions, pruned: manifest.pruned, objects: manifest.objects.keys,
            newObjects: [:], sizes: [:], base: base)
        let entries = history.alone.values.map { object in
            guard case .carried(let entry, _) = object else {
                preconditionFailure("an upgrade writes no object of the base anew")
            }
            return entry
        }
        return (entries, history.items, manifest.versions.count, manifest.pruned.count)
    }
}
