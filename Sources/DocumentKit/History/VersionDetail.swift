import Foundation

/// One version as `docctl show` reports it: its record, and what it changed against its
/// parent (for a merge, its first parent: the version merged into), as `VersionDiff`
/// finds it.
public struct VersionDetail: Codable, Equatable, Sendable {
    /// The version.
    public var version: VersionSummary
    /// The parent it is compared with: its first. `nil` (and left out of the JSON) for the
    /// first version, and for one whose parent was pruned: it is then compared with
    /// nothing, an empty document without blobs, so that everything it holds is added.
    public var parent: VersionSummary?
    /// The document's changes, in document order.
    public var changes: [JSONChange]
    /// Blobs added and removed, by digest.
    public var blobs: [BlobChange]

    /// The version named `name` (default: the head) of the bundle at `url`.
    public init(of url: URL, version name: String? = nil) throws {
        let bundle = try DocumentBundle(contentsOf: url)
        try self.init(try name.map(bundle.version(named:)) ?? bundle.headVersion, in: bundle)
    }

    /// `version` of the open `bundle`: what an export showing every version's changes asks
    /// for each, without opening the bundle again. `document` reads a version's document,
    /// for a caller that holds one (see ``VersionDiff``).
    package init(
        _ version: BundleVersion, in bundle: DocumentBundle,
        document: (DocumentBundle, BundleVersion) throws -> Data = { try $0.documentDataForParsing(of: $1) }
    ) throws {
        let parent = try bundle.firstParent(of: version)
        self.version = VersionSummary(version)
        self.parent = parent.map(VersionSummary.init)
        (changes, blobs) = try VersionDiff.changes(
            from: parent.map { (bundle, $0) }, to: (bundle, version), document: document)
    }
}
