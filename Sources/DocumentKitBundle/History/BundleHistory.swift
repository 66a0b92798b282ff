import DocumentKitArchive
import DocumentKitCore
import Foundation

/// The history of a format-3 bundle, read from its segments as it is asked for: a version
/// by its place, an object by its digest. Opening it reads each segment's trailer and
/// index, never a block; each question decodes one block or a few.
package struct BundleHistory: Sendable {
    package let manifest: HistoryManifest
    /// The segments, oldest first, with the places each holds.
    package let segments: [(name: String, places: ClosedRange<Int>, reader: HistorySegment.Reader)]

    /// A version read from the history, with its root tree when the segment stores that
    /// by place, before the record (FORMAT.md §12.2): no index row finds such a tree.
    package struct Located {
        package var version: BundleVersion
        package var placedTree: HistorySegment.ObjectItem?
    }

    /// The history of the bundle `zip`, whose `manifest.json` is `manifest`.
    package init(manifest: HistoryManifest, zip: StoredZipReader) throws {
        self.manifest = manifest
        segments = try manifest.history.map { name in
            guard let entry = zip.entry(named: name) else {
                throw DocumentKitError(.malformedInput, "manifest.json names segment '\(name)', which the bundle lacks")
            }
            let reader = try Self.inSegment(name) { try HistorySegment.Reader(entry: entry, in: zip) }
            let places = HistoryManifest.places(ofSegment: name)!
            guard reader.firstPlace == UInt64(places.lowerBound), reader.versionCount == places.count else {
                throw DocumentKitError(
                    .malformedInput,
                    """
                    segment '\(name)' holds \(reader.versionCount) versions from place \(reader.firstPlace), not \
                    what its name says
                    """
                )
            }
            return (name, places, reader)
        }
    }

    /// The place of the newest version.
    package var lastPlace: Int { manifest.pruned + manifest.versions }

    /// The version at `place` (pruned versions took the first places), numbered by it.
    package func version(atPlace place: Int) throws -> Located {
        guard let segment = segments.first(where: { $0.places.contains(place) }) else {
            throw DocumentKitError(.notFound, "there is no version \(place)")
        }
        let stored = try Self.inSegment(segment.name) {
            try segment.reader.version(at: place - segment.places.lowerBound)
        }
        let version = try BundleVersion(segmentRecord: stored.record, number: place)
        let tree = stored.before.flatMap { $0.foundByPlace && $0.digest == version.tree ? $0 : nil }
        return Located(version: version, placedTree: tree)
    }

    /// Passes every version to `body`, newest first, until it returns `false`: each block
    /// decoded and walked once (reading them by place would walk a block from its start
    /// for each of its versions).
    package func forEachVersionNewestFirst(_ body: (Located) throws -> Bool) throws {
        var walk = newestFirst()
        while let located = try walk.next(), try body(located) {}
    }

    /// The head: the newest segment's last version.
    package func headVersion() throws -> Located {
        try version(atPlace: lastPlace)
    }

    /// The object `digest` as a segment holds it, newest segment first; `nil` when no
    /// segment's index has it (it may be a version's root tree, found through its version).
    package func object(_ digest: ObjectDigest) throws -> HistorySegment.ObjectItem? {
        try object(digest, searchingFrom: segments.count - 1)?.item
    }

    /// The object `digest` as a segment holds it, and that segment's index: segment `start`
    /// searched first, then the older ones newest first, then the newer ones. A delta's
    /// base was stored when the delta was or before, so a chain walked from its newest
    /// link, each base searched from its delta's segment, searches the segments the chain
    /// passes through, not every newer one again at each of its 60 links.
    package func object(_ digest: ObjectDigest, searchingFrom start: Int) throws
        -> (item: HistorySegment.ObjectItem, segment: Int)?
    {
        guard !segments.isEmpty else { return nil }
        let start = min(max(start, 0), segments.count - 1)
        for index in Array((0...start).reversed()) + Array((start + 1)..<segments.count) {
            let segment = segments[index]
            if let found = try Self.inSegment(segment.name, { try segment.reader.object(digest) }) {
                return (found, index)
            }
        }
        return nil
    }

    /// The index of the segment holding the version at `place`.
    package func segmentIndex(holding place: Int) -> Int? {
        segments.firstIndex { $0.places.contains(place) }
    }

    /// The pruned ids, in order: read from the blocks that hold them (a prune writes them
    /// first), as far as the count `manifest.json` gives, or `limit`, and no further.
    package func prunedIDs(limit: Int = .max) throws -> [VersionID] {
        var ids: [VersionID] = []
        let wanted = min(manifest.pruned, limit)
        guard wanted > 0 else { return ids }
        for segment in segments {
            for block in 0..<segment.reader.blockCount {
                for item in try Self.inSegment(
                    segment.name, { try segment.reader.items(inBlock: block, keepingTheBlock: false) })
                {
                    guard case .pruned(let id) = item else { continue }
                    ids.append(id)
                    if ids.count == wanted { return ids }
                }
            }
        }
        return ids
    }

    /// Every version, pruned id and object record, read from every segment in order: the
    /// manifest of format 2 that the history amounts to. `placed` is given each root tree
    /// stored by place.
    package func listing(placed: (HistorySegment.ObjectItem) -> Void) throws -> BundleManifest {
        var versions: [BundleVersion] = []
        var pruned: [VersionID] = []
        var objects: [ObjectDigest: ObjectRecord] = [:]
        // The segment each listed record came from: of several copies of an object, the
        // newest segment's is listed, and in it the copy `Reader.object(_:)` reads.
        var listedFrom: [ObjectDigest: Int] = [:]
        versions.reserveCapacity(manifest.versions)
        for (index, segment) in segments.enumerated() {
            try Self.inSegment(segment.name) {
                for item in try segment.reader.items(identified: false) {
                    switch item {
                    case .version(_, let record):
                        versions.append(
                            try BundleVersion(segmentRecord: record, number: manifest.pruned + versions.count + 1))
                    case .pruned(let id):
                        pruned.append(id)
                    case .object(let object):
                        let keptHere = listedFrom[object.digest] == index
                        if !keptHere || (objects[object.digest]?.codec == .delta && object.record.codec != .delta) {
                            objects[object.digest] = object.record
                            listedFrom[object.digest] = index
                        }
                        if object.foundByPlace { placed(object) }
                    }
                }
            }
        }
        guard pruned.count == manifest.pruned, versions.count == manifest.versions, versions.last?.id == manifest.head
        else {
            throw DocumentKitError(
                .malformedInput,
                """
                the segments hold \(versions.count) versions and \(pruned.count) pruned ids ending at \
                \(versions.last?.shortID ?? "none"); manifest.json says \(manifest.versions) and \
                \(manifest.pruned), ending at \(manifest.head.prefix(12))
                """,
                location: "manifest.json")
        }
        var listing = BundleManifest(
            contentType: manifest.contentType, head: manifest.head, versions: versions, objects: objects, pruned: pruned
        )
        listing.formatVersion = HistoryManifest.formatVersion
        return listing
    }
}

extension BundleHistory {
    /// Runs `body`, which reads segment `name`, with its errors located at the segment's entry.
    package static func inSegment<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DocumentKitError where error.location == nil {
            throw DocumentKitError(error.code, error.message, location: "entry '\(name)'")
        }
    }
}

extension HistorySegment.ObjectItem {
    /// The object's record as format 2's manifest gives it: an item's bytes count as its
    /// stored size, and a delta item's program is not compressed (its block is).
    package var record: ObjectRecord {
        switch storage {
        case .identity(let data): ObjectRecord(size: size, codec: .identity, storedSize: UInt64(data.count))
        case .delta(let base, let program):
            ObjectRecord(size: size, codec: .delta, storedSize: UInt64(program.count), base: base)
        case .entry(let codec, let storedSize, let base):
            ObjectRecord(size: size, codec: codec, storedSize: storedSize, base: base)
        }
    }
}
