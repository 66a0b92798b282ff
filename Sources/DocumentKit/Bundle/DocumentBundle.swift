import Foundation

/// A bundle file opened for reading: its manifest, and lazy access to every version's
/// tree and every object.
///
/// Opening reads the zip's central directory, the `mimetype` entry and the manifest; no
/// object is read until asked for, and every object read is checked against its digest.
///
/// ```swift
/// let bundle = try DocumentBundle(contentsOf: url)
/// let project = try bundle.read(Project.self)                 // the head version
/// let first = try bundle.read(Project.self, version: bundle.version(named: "1"))
/// ```
public final class DocumentBundle: ObjectSource {
    /// Where the bundle is.
    public let url: URL
    /// The bundle's manifest.
    public let manifest: BundleManifest
    /// The MIME type in the `mimetype` entry.
    public let mimeType: String
    let zip: StoredZipReader
    let limits: BundleLimits
    /// Bytes an unfinished in-place save left after the bundle's end (see `AppendJournal`).
    let unfinishedAppendBytes: UInt64

    /// Bytes of the file that no entry uses: superseded copies of `document.json`, the
    /// manifest and the central directory that in-place saves leave behind. A save
    /// rewrites the bundle without them once they pass a third of the file.
    public var reclaimableBytes: UInt64 { zip.unreferencedBytes }

    /// Opens the bundle at `url`; throws `missingInput`, `malformedInput` or
    /// `unsupportedFormat` with the path and the entry at fault.
    public init(contentsOf url: URL, limits: BundleLimits = .default) throws {
        self.url = url
        self.limits = limits
        let container = try BundleContainer(url: url, limits: limits)
        zip = container.zip
        unfinishedAppendBytes = container.unfinishedAppendBytes
        mimeType = container.mimeType
        do {
            manifest = try Self.decodeManifest(container.manifestData, limits: limits)
        } catch {
            throw Self.locate(error, path: url.relativePath)
        }
    }

    /// The head version's document JSON, reading no more of the manifest than its format
    /// and head: the fast path for `docctl cat`, whatever the length of the history.
    public static func headDocument(of url: URL, limits: BundleLimits = .default) throws -> Data {
        let container = try BundleContainer(url: url, limits: limits)
        try container.checkManifestHeader(limits: limits)
        return try container.read(BundleEntry.document, limit: limits.maxInMemoryObjectBytes)
    }

    private static func decodeManifest(_ data: Data, limits: BundleLimits) throws -> BundleManifest {
        do {
            // DocumentKit's parser first: it refuses duplicate member names (a second "head"
            // that other readers would take instead of the first) and nesting past the limit,
            // which JSONDecoder would accept or overflow its stack on.
            try JSONValue.check(data, depthLimit: limits.maxJSONDepth)
            let manifest = try DocumentDates.decoder().decode(BundleManifest.self, from: data)
            guard manifest.versions.count <= limits.maxVersions else {
                throw DocumentKitError(.malformedInput, "manifest.json lists more than \(limits.maxVersions) versions")
            }
            guard manifest.headVersion != nil else {
                throw DocumentKitError(.malformedInput, "manifest.json names head \(manifest.head.prefix(12)), which is not one of its versions")
            }
            return manifest
        } catch let error as DocumentKitError {
            throw DocumentKitError(error.code, error.message, location: error.location ?? "manifest.json")
        } catch {
            throw DocumentKitError(.malformedInput, "not a valid manifest: \(DecodingErrorDescription.describe(error))", location: "manifest.json")
        }
    }

    static func locate(_ error: any Error, path: String) -> any Error {
        if let error = error as? DocumentKitError { return error.at(path: path) }
        if let error = error as? ArchiveError {
            var converted = DocumentKitError(error)
            converted.path = path
            if error.kind == .notAnArchive { converted.message = "not a DocumentKit bundle: \(error.message)" }
            return converted
        }
        return error
    }

    /// The head version: the one `document.json` holds.
    public var headVersion: BundleVersion { manifest.headVersion! }

    /// The content type the manifest names, if this build knows it.
    public var contentType: ContentType? { ContentTypeRegistry.shared.type(identifier: manifest.contentType) }

    /// The head document's JSON, as stored in the `document.json` entry.
    public func headDocumentData() throws -> Data {
        try BundleContainer.read(BundleEntry.document, from: zip, path: url.relativePath, limit: limits.maxInMemoryObjectBytes)
    }

    /// The document JSON of `version`, read from its tree.
    public func documentData(of version: BundleVersion) throws -> Data {
        if version.id == manifest.head { return try headDocumentData() }
        guard let file = try tree(of: version)[CodableDocumentLayout.documentName] else {
            throw DocumentKitError(.malformedInput, "version \(version.number) has no document.json", path: url.relativePath)
        }
        return try file.regularFileContents()
    }

    /// Reads `version` (by default the head) as a document of type `D`.
    public func read<D: FileDocument>(_ type: D.Type, version: BundleVersion? = nil) throws -> D {
        let version = version ?? headVersion
        let contentType = self.contentType ?? ContentType(identifier: manifest.contentType, mimeType: mimeType)
        guard D.readableContentTypes.contains(where: { contentType.conforms(to: $0) }) else {
            throw DocumentKitError(.unsupportedFormat, "holds \(manifest.contentType), which \(D.self) cannot read", path: url.relativePath)
        }
        return try DocumentKitError.located(at: url.relativePath) {
            try D(configuration: ReadConfiguration(contentType: contentType, file: try tree(of: version), version: version))
        }
    }
}
