import Foundation

// The long operations, for `async` callers: each runs on a thread of its own
// (`BlockingWork`), so that it holds none of the cooperative threads Swift's tasks share,
// and is otherwise the synchronous call of the same name.

extension DocumentBundle {
    /// Opens the bundle at `url`, as `init(contentsOf:limits:)` does.
    public static func open(_ url: URL, limits: BundleLimits = .default) async throws -> DocumentBundle {
        try await BlockingWork.run { try DocumentBundle(contentsOf: url, limits: limits) }
    }
}

extension BundleExporter {
    /// Exports a version of the bundle at `url` (every version, in a bag or a site, with
    /// `allVersions`), as `export(_:version:format:to:replace:allVersions:dryRun:accessCopy:trusted:)` does.
    public static func export(
        _ url: URL, version: String? = nil, format: ExportFormat, to output: URL,
        replace: Bool, allVersions: Bool = false, accessCopy: Bool = false, trusted: TrustedSigners? = nil
    ) async throws -> Result {
        try await BlockingWork.run {
            try export(
                url, version: version, format: format, to: output, replace: replace, allVersions: allVersions,
                accessCopy: accessCopy, trusted: trusted)
        }
    }
}

extension BundleImporter {
    /// Imports a folder, archive or JSON file as a new bundle of `type`, as
    /// `importDocument(from:to:type:schema:metadata:replace:)` does.
    public static func importDocument(
        from source: URL, to output: URL, type: any CodableDocument.Type, schema: String? = nil,
        metadata: SaveMetadata, replace: Bool = false
    ) async throws -> BundleVersion {
        try await BlockingWork.run {
            try importDocument(
                from: source, to: output, type: type, schema: schema, metadata: metadata, replace: replace)
        }
    }
}

extension BundleValidator {
    /// Validates the bundle at `url`, as `validate(_:deep:limits:)` does.
    public static func validate(_ url: URL, deep: Bool = false, limits: BundleLimits = .default) async throws
        -> ValidationReport
    {
        try await BlockingWork.run { try validate(url, deep: deep, limits: limits) }
    }
}

extension BundlePruner {
    /// Removes the oldest versions of the bundle at `url`, as `prune(_:keep:before:dryRun:compression:)` does.
    public static func prune(
        _ url: URL, keep: Int? = nil, before: Date? = nil, dryRun: Bool = false,
        compression: ObjectCompression = .zstd
    ) async throws -> Report {
        try await BlockingWork.run {
            try prune(url, keep: keep, before: before, dryRun: dryRun, compression: compression)
        }
    }
}
