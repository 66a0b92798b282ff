import DocumentKitArchive
import DocumentKitCore
import Foundation

/// The history of a format-3 bundle, read from its segments as it is asked for: a version
/// by its place, an object by its digest. Opening it reads each segment's trailer and
/// index, never a block; each question decodes one block or a few.
package struct BundleHistory {
    package let manifest: HistoryManifest
    /// The segments, oldest first, with the places each holds.
    private let segments: [(places: ClosedRange<Int>, reader: HistorySegment.Reader)]

    /// The history of the bundle `zip`, whose `manifest.json` is `manifest`.
    package init(manifest: HistoryManifest, zip: StoredZipReader) throws {
        self.manifest = manifest
        segments = try manifest.history.map { name in
            guard let entry = zip.entry(named: name) else {
                throw DocumentKitError(.malformedInput, "manifest.json names segment '\(name)', which the bundle lacks")
            }
            let reader = try DocumentKitError.located(at: "entry '\(name)'") { try HistorySegment.Reader(entry: entry, in: zip) }
            let places = HistoryManifest.places(ofSegment: name)!
            guard reader.firstPlace == UInt64(places.lowerBound), reader.versionCount == places.count else {
                throw DocumentKitError(.malformedInput, "segment '\(name)' holds \(reader.versionCount) versions from place \(reader.firstPlace), not what its name says")
            }
            return (places, reader)
        }
    }

    /// The version at `place` (pruned versions took the first places), numbered by it.
    package func version(atPlace place: Int) throws -> BundleVersion {
        guard let segment = segments.first(where: { $0.places.contains(place) }) else {
            throw DocumentKitError(.notFound, "there is no version \(place)")
        }
        let stored = try segment.reader.version(at: place - segment.places.lowerBound)
        return try BundleVersion(segmentRecord: stored.record, number: place)
    }

    /// The head: the newest segment's last version.
    package func headVersion() throws -> BundleVersion {
        try version(atPlace: manifest.pruned + manifest.versions)
    }

    /// The object `digest` as a segment holds it, newest segment first; `nil` when no
    /// segment does (it may be a version's root tree, found through its version).
    package func object(_ digest: ObjectDigest) throws -> HistorySegment.ObjectItem? {
        for segment in segments.reversed() {
            if let found = try segment.reader.objects(digest).first { return found }
        }
        return nil
    }

    /// The root tree of the version at `place`, when it is stored by place before its record.
    package func rootTree(ofPlace place: Int) throws -> HistorySegment.ObjectItem? {
        guard let segment = segments.first(where: { $0.places.contains(place) }) else { return nil }
        return try segment.reader.version(at: place - segment.places.lowerBound).before
    }
}
