import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension BundleManifest {
    /// What reading the head's document needs from a manifest: the head version's record
    /// and the record of that version's root tree object.
    package struct HeadRecords {
        package var contentType: String
        package var version: BundleVersion
        package var tree: ObjectRecord
    }

    /// The head's records, found in manifest text without decoding the rest of it, so that
    /// reading the head's document (`docctl cat`, `get`) costs the same however long the
    /// history is.
    ///
    /// The text is scanned for its members by structure alone (`ManifestScan`); what is
    /// decoded, the format, the head, the head's version record and its tree's record, is
    /// checked as the whole manifest would be (DocumentKit's parser, then `JSONDecoder`).
    /// Throws only for a format this build does not read. Returns `nil` whenever anything is
    /// not where and as a valid manifest has it (a member missing, of the wrong type, named
    /// twice or with escapes; the head none of the versions; text cut short): the caller
    /// then decodes the whole manifest, whose error says what is wrong, in the words every
    /// other command uses.
    package static func headRecords(in data: Data, limits: BundleLimits) throws -> HeadRecords? {
        guard
            let layout = data.withUnsafeBytes({ bytes in
                var scan = ManifestScan(bytes: bytes)
                return scan.layout()
            }),
            case .string(let format)? = try? decoded(data, layout.members["format"]),
            case .integer(let formatVersion)? = try? decoded(data, layout.members["formatVersion"]),
            case .string(let contentType)? = try? decoded(data, layout.members["contentType"]),
            case .string(let head)? = try? decoded(data, layout.members["head"])
        else { return nil }
        try Header.check(format: format, formatVersion: Int(formatVersion))
        // A format-3 manifest lists no versions: its bundle opens through its history.
        guard formatVersion < HistoryManifest.formatVersion, layout.versions.count <= limits.maxVersions,
            let place = data.withUnsafeBytes({ bytes in
                layout.versions.lastIndex { $0.id.map { bytes[$0].elementsEqual(head.utf8) } ?? false }
            }),
            var version = try? record(BundleVersion.self, in: data, layout.versions[place].range, limits: limits),
            let objects = layout.members["objects"],
            let treeRange = data.withUnsafeBytes({ bytes in
                var scan = ManifestScan(bytes: bytes, at: objects.lowerBound)
                return scan.rangeOfMember(named: version.tree.hex)
            }),
            let tree = try? record(ObjectRecord.self, in: data, treeRange, limits: limits)
        else { return nil }
        version.number = layout.prunedCount + place + 1
        return HeadRecords(contentType: contentType, version: version, tree: tree)
    }

    private static func decoded(_ data: Data, _ range: Range<Int>?) throws -> JSONValue? {
        try range.map { try JSONValue.parse(slice(data, $0)) }
    }

    /// Decodes one record as decoding the whole manifest would: checked by DocumentKit's
    /// parser first (nesting, duplicate member names), then by `JSONDecoder`.
    private static func record<T: Decodable>(_ type: T.Type, in data: Data, _ range: Range<Int>, limits: BundleLimits)
        throws -> T
    {
        let text = slice(data, range)
        try JSONValue.check(text, depthLimit: limits.maxJSONDepth)
        return try DocumentDates.decoder().decode(type, from: text)
    }

    private static func slice(_ data: Data, _ range: Range<Int>) -> Data {
        data.subdata(in: data.startIndex + range.lowerBound..<data.startIndex + range.upperBound)
    }
}
