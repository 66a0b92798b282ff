import Foundation

/// What `docctl info` reports about a bundle.
public struct BundleSummary: Codable, Equatable, Sendable {
    /// The bundle's path as given.
    public var path: String
    public var contentType: String
    public var mimeType: String
    public var formatVersion: Int
    /// The head version.
    public var head: VersionSummary
    public var versionCount: Int
    public var objectCount: Int
    /// The sum of the objects' sizes, uncompressed.
    public var objectBytes: UInt64
    /// The sum of the objects' stored sizes.
    public var storedBytes: UInt64
    /// The bundle file's size.
    public var fileBytes: UInt64
    /// Bytes of the file no entry uses any more (superseded by in-place saves); a save
    /// rewrites the bundle without them once they pass a third of it.
    public var reclaimableBytes: UInt64
    /// The head document's size.
    public var documentBytes: UInt64
    /// The blobs the head document refers to.
    public var blobCount: Int
    /// How many keys the bundle's state (`state.json`, outside the history) holds; `nil`,
    /// and left out of the JSON, when it cannot be read (`docctl validate` says why).
    public var stateKeys: Int?

    /// Summarises the bundle at `url` without reading any object but the head's trees, nor
    /// (format 3, whose manifest keeps the counts) any version but the head.
    public init(of url: URL) throws {
        let bundle = try DocumentBundle(contentsOf: url)
        path = url.relativePath
        contentType = bundle.contentTypeIdentifier
        mimeType = bundle.mimeType
        formatVersion = bundle.formatVersion
        head = VersionSummary(bundle.headVersion)
        let counts = try bundle.counts()
        versionCount = counts.versions
        (objectCount, objectBytes, storedBytes) = (
            counts.objects.count, counts.objects.bytes, counts.objects.storedBytes
        )
        fileBytes = SystemCall.status(url.path).map { UInt64($0.st_size) } ?? 0
        reclaimableBytes = bundle.reclaimableBytes
        let tree = try bundle.tree(of: bundle.headVersion)
        documentBytes = tree[VersionLayout.documentName]?.fileSize ?? 0
        blobCount = tree[VersionLayout.blobsFolder]?.fileWrappers?.count ?? 0
        // A summary is for looking at a bundle, and a damaged state does not stop that.
        stateKeys = try? bundle.storedState().count
    }

    /// Every version of the bundle at `url` that `filter` lets through, newest first (each
    /// before its parents), at most `limit` of them.
    public static func log(of url: URL, matching filter: VersionFilter = VersionFilter(), limit: Int? = nil) throws
        -> [VersionSummary]
    {
        var versions: [VersionSummary] = []
        try log(of: url, matching: filter, limit: limit) { versions.append($0) }
        return versions
    }

    /// Passes `each` every version of the bundle at `url` that `filter` lets through, newest
    /// first, at most `limit` of them, as they are read: a format-3 history a version at a
    /// time, so that the first is printed before the last is read.
    public static func log(
        of url: URL, matching filter: VersionFilter = VersionFilter(), limit: Int? = nil,
        _ each: (VersionSummary) throws -> Void
    ) throws {
        let bundle = try DocumentBundle(contentsOf: url)
        var found = 0
        guard limit.map({ $0 > 0 }) ?? true else { return }
        try bundle.forEachVersionNewestFirst { version in
            guard filter.matches(version) else { return true }
            try each(VersionSummary(version))
            found += 1
            return limit.map { found < $0 } ?? true
        }
    }
}
