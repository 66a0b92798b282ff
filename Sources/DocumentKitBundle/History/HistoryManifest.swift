import DocumentKitCore
import DocumentKitJSON
import Foundation

/// `manifest.json` of a format-3 bundle (FORMAT.md §12.1): a few hundred bytes that
/// name the head and the history segments, however long the history.
package struct HistoryManifest: Codable, Equatable, Sendable {
    package static let formatVersion = 3

    package var format = BundleManifest.formatName
    package var formatVersion = Self.formatVersion
    package var contentType: String
    /// The head's id: the last version of the newest segment.
    package var head: VersionID
    /// How many versions the segments hold, and how many pruned ids.
    package var versions: Int
    package var pruned: Int
    /// The objects the history stores (items and entries), what they hold, and what they
    /// take stored: what `docctl info` reports without listing the history.
    package var objects: ObjectCounts
    /// The segment entries' names, oldest first.
    package var history: [String]
    /// The place of the version whose document starts the forward delta chains (FORMAT.md §12
    /// §3): 1 in a bundle made in format 3, the first version saved after an upgrade in
    /// one made before. Writers need it to keep chains short; readers follow any chain.
    package var chainOrigin: Int
    /// Where the document this manifest's save superseded was, with the room after it: the
    /// first byte and the byte after the last (FORMAT.md §12.1). The next save may write its
    /// document there once it checked the bytes hold superseded entries alone; readers
    /// need it not. Absent from a bundle written whole.
    package var freeSlot: [UInt64]?

    /// ``freeSlot`` as a range, when it is one.
    package var freeSlotRange: Range<UInt64>? {
        guard let freeSlot, freeSlot.count == 2, freeSlot[0] < freeSlot[1] else { return nil }
        return freeSlot[0]..<freeSlot[1]
    }

    /// How many objects a history stores, and their bytes.
    package struct ObjectCounts: Codable, Equatable, Sendable {
        package var count = 0
        /// Their sizes, decoded.
        package var bytes: UInt64 = 0
        /// Their stored sizes: an item's bytes or program before its block is compressed.
        package var storedBytes: UInt64 = 0

        package init() {}

        /// Counts one more object.
        package mutating func add(_ record: ObjectRecord) {
            count += 1
            bytes += record.size
            storedBytes += record.storedSize
        }
    }

    package init(
        contentType: String, head: VersionID, versions: Int, pruned: Int, history: [String], chainOrigin: Int = 1
    ) {
        self.contentType = contentType
        self.head = head
        self.versions = versions
        self.pruned = pruned
        self.objects = ObjectCounts()
        self.history = history
        self.chainOrigin = chainOrigin
    }

    /// The manifest's text: canonical JSON, as every manifest is written (FORMAT.md §7).
    package func encoded() throws -> Data {
        try CanonicalJSONEncoder().encode(self, terminated: true)
    }

    /// The name of the segment holding the places `first` through `last`.
    package static func segmentName(first: Int, last: Int) -> String {
        "history/" + String(format: "%012d-%012d", first, last)
    }

    /// The places a segment's name says it holds; `nil` for a name that is not one.
    package static func places(ofSegment name: String) -> ClosedRange<Int>? {
        let parts = name.split(separator: "/")
        guard parts.count == 2, parts[0] == "history" else { return nil }
        let bounds = parts[1].split(separator: "-")
        guard bounds.count == 2, bounds.allSatisfy({ $0.count == 12 && $0.allSatisfy(\.isASCII) }),
            let first = Int(bounds[0]), let last = Int(bounds[1]), first >= 1, first <= last
        else { return nil }
        return first...last
    }

    /// Decodes and checks the manifest: its segments' names follow each other, from the
    /// place after the pruned versions to the last version.
    package static func decode(_ data: Data) throws -> HistoryManifest {
        let manifest: HistoryManifest
        do {
            manifest = try JSONDecoder().decode(HistoryManifest.self, from: data)
        } catch {
            throw DocumentKitError(
                .malformedInput, "not a valid manifest: \(DecodingErrorDescription.describe(error))",
                location: "manifest.json")
        }
        guard manifest.format == BundleManifest.formatName, manifest.formatVersion == formatVersion else {
            throw DocumentKitError(
                .malformedInput,
                """
                manifest.json is not a format-\(formatVersion) manifest (format '\(manifest.format)', version \
                \(manifest.formatVersion))
                """,
                location: "manifest.json")
        }
        var next = manifest.pruned + 1
        for name in manifest.history {
            guard let places = places(ofSegment: name), places.lowerBound == next else {
                throw DocumentKitError(
                    .malformedInput, "manifest.json names segment '\(name)', which does not follow the one before it",
                    location: "manifest.json")
            }
            next = places.upperBound + 1
        }
        guard manifest.chainOrigin >= 1, manifest.chainOrigin <= manifest.pruned + manifest.versions + 1 else {
            throw DocumentKitError(
                .malformedInput,
                "manifest.json gives chainOrigin \(manifest.chainOrigin), which is not one of its places",
                location: "manifest.json")
        }
        guard next == manifest.pruned + manifest.versions + 1, manifest.versions >= 1 else {
            throw DocumentKitError(
                .malformedInput,
                """
                manifest.json counts \(manifest.versions) versions, and its segments hold \
                \(next - 1 - manifest.pruned)
                """,
                location: "manifest.json")
        }
        return manifest
    }
}
