import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// `manifest.json`: everything a reader needs to understand a bundle, and a validator to
/// prove it whole. See FORMAT.md for each field.
public struct BundleManifest: Codable, Sendable, Equatable {
    /// Always `"documentkit.bundle"`: tells this manifest from other JSON.
    public var format: String
    /// The layout version of the bundle. A reader refuses a larger one than it knows.
    public var formatVersion: Int
    /// The document type's identifier (a `ContentType` identifier).
    public var contentType: String
    /// The id of the version `document.json` holds.
    public var head: VersionID
    /// Every version, each after its parents (oldest first). Decoding numbers them by
    /// their place (``BundleVersion/number``).
    public var versions: [BundleVersion]
    /// Every object the bundle stores, by digest.
    public var objects: [ObjectDigest: ObjectRecord]
    /// The ids of versions `prune` removed, oldest first: the first remaining version's
    /// parent is one of them. Written only when not empty.
    public var pruned: [VersionID]

    /// The `format` value every manifest carries.
    public static let formatName = "documentkit.bundle"
    /// The layout this build writes: 3, whose history is in segments (FORMAT.md). Formats
    /// 1 and 2 are read for ever; a save upgrades them.
    public static let currentFormatVersion = 3
    /// The newest layout whose `manifest.json` lists every version and object, as this
    /// type does: 2, whose version ids cover no number (FORMAT.md §5). A save writes it
    /// only when asked (`SaveMetadata.formatVersion`).
    public static let wholeManifestFormatVersion = 2
    /// The newest layout this build reads: 3, whose history is in segments.
    public static let newestReadableFormatVersion = 3

    /// The head version.
    public var headVersion: BundleVersion? { versions.last { $0.id == head } }

    private enum CodingKeys: String, CodingKey {
        case format, formatVersion, contentType, head, versions, objects, pruned
    }

    public init(
        contentType: String, head: VersionID, versions: [BundleVersion], objects: [ObjectDigest: ObjectRecord],
        pruned: [VersionID] = []
    ) {
        self.format = Self.formatName
        self.formatVersion = Self.wholeManifestFormatVersion
        self.contentType = contentType
        self.head = head
        self.versions = versions
        self.objects = objects
        self.pruned = pruned
    }

    /// The members a reader checks before anything else: enough to refuse a bundle this
    /// build cannot read, and to find the head, without decoding the version list.
    package struct Header: Decodable {
        package var format: String
        package var formatVersion: Int
        package var contentType: String
        package var head: VersionID

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            format = try container.decode(String.self, forKey: .format)
            formatVersion = try container.decode(Int.self, forKey: .formatVersion)
            // Refuse a newer layout before trying to understand the rest of it.
            try Self.check(format: format, formatVersion: formatVersion)
            contentType = try container.decode(String.self, forKey: .contentType)
            head = try container.decode(VersionID.self, forKey: .head)
        }

        /// Throws unless the manifest is one this build reads.
        package static func check(format: String, formatVersion: Int) throws {
            guard format == BundleManifest.formatName else {
                throw DocumentKitError(
                    .malformedInput, "manifest.json is not a DocumentKit manifest (format '\(format)')")
            }
            guard formatVersion >= 1 else {
                throw DocumentKitError(
                    .malformedInput, "manifest.json has format version \(formatVersion); versions start at 1")
            }
            guard formatVersion <= BundleManifest.newestReadableFormatVersion else {
                throw DocumentKitError(
                    .unsupportedFormat,
                    """
                    bundle format version \(formatVersion) is newer than this DocumentKit supports \
                    (\(BundleManifest.newestReadableFormatVersion)); upgrade \(RunningProgram.name) to open it
                    """
                )
            }
        }

        /// Checks the members `JSONValue.parseMembers` read from a manifest's start.
        package static func check(_ members: [String: JSONValue]) throws {
            guard case .string(let format)? = members["format"], case .integer(let version)? = members["formatVersion"],
                case .string? = members["head"]
            else {
                throw DocumentKitError(
                    .malformedInput,
                    "not a valid manifest: format, formatVersion or head is missing or of the wrong type")
            }
            try check(format: format, formatVersion: Int(version))
        }
    }

    public init(from decoder: any Decoder) throws {
        let header = try Header(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = header.format
        formatVersion = header.formatVersion
        contentType = header.contentType
        head = header.head
        versions = try container.decode([BundleVersion].self, forKey: .versions)
        pruned = try container.decodeIfPresent([VersionID].self, forKey: .pruned) ?? []
        Self.number(&versions, after: pruned.count)
        // JSON object keys are strings; decode them as digests explicitly.
        let rawObjects = try container.decode([String: ObjectRecord].self, forKey: .objects)
        var objects: [ObjectDigest: ObjectRecord] = [:]
        objects.reserveCapacity(rawObjects.count)
        for (key, record) in rawObjects {
            guard let digest = ObjectDigest(hex: key) else {
                throw DocumentKitError(
                    .malformedInput, "manifest.json lists an object named '\(key)', which is not a SHA-256 digest")
            }
            objects[digest] = record
        }
        self.objects = objects
    }

    /// Numbers versions by their place: pruned versions took the first numbers, then each
    /// version in the manifest's order. (In a format-1 bundle these are the numbers its
    /// records hold; the validator checks it.)
    package static func number(_ versions: inout [BundleVersion], after prunedCount: Int) {
        for index in versions.indices { versions[index].number = prunedCount + index + 1 }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(formatVersion, forKey: .formatVersion)
        try container.encode(contentType, forKey: .contentType)
        try container.encode(head, forKey: .head)
        try container.encode(versions, forKey: .versions)
        if !pruned.isEmpty { try container.encode(pruned, forKey: .pruned) }
        try container.encode(Dictionary(uniqueKeysWithValues: objects.map { ($0.key.hex, $0.value) }), forKey: .objects)
    }
}
