import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A bundle file opened for reading: its manifest, and lazy access to every version's
/// tree and every object.
///
/// Opening reads the zip's central directory, the `mimetype` entry and the manifest; no
/// object is read until asked for, and every object read is checked against its digest,
/// as is `document.json` against the head's (``documentData(of:)``).
///
/// ```swift
/// let bundle = try DocumentBundle(contentsOf: url)
/// let project = try bundle.read(Project.self)                 // the head version
/// let first = try bundle.read(Project.self, version: bundle.version(named: "1"))
/// ```
public final class DocumentBundle: ObjectSource, Sendable {
    /// Where the bundle is.
    public let url: URL
    /// The MIME type in the `mimetype` entry.
    public let mimeType: String
    /// The head version: the one `document.json` holds.
    public let headVersion: BundleVersion
    /// The layout version of the bundle (FORMAT.md §2): 1, 2 or 3.
    public let formatVersion: Int
    /// The content type's identifier, from the manifest.
    public let contentTypeIdentifier: String
    package let zip: StoredZipReader
    package let limits: BundleLimits
    /// Bytes an unfinished in-place save left after the bundle's end (see `AppendJournal`).
    package let unfinishedAppendBytes: UInt64
    /// The tree objects decoded so far (see `treeObject(_:)`).
    package let decodedTrees = Protected<[ObjectDigest: TreeObject]>([:])
    /// A format-3 bundle's history segments, read as they are asked for; `nil` for a
    /// bundle of format 1 or 2, whose manifest lists everything.
    package let history: BundleHistory?
    /// The manifest of a format-1 or 2 bundle, decoded when opened; a format-3 bundle's,
    /// made from its segments the first time a caller asks for all of it.
    private let listing: Protected<BundleManifest?>
    /// Root trees a format-3 history stores by their place, before their version's
    /// record, met while reading versions (see `BundleHistory.Located`).
    package let placedObjects = Protected<[ObjectDigest: HistorySegment.ObjectItem]>([:])

    /// Bytes of the file that no entry uses: superseded copies of `document.json`, the
    /// manifest and the central directory that in-place saves leave behind. A save
    /// rewrites the bundle without them once they pass a third of the file.
    public var reclaimableBytes: UInt64 { zip.unreferencedBytes }

    /// Opens the bundle at `url`; throws `missingInput`, `malformedInput` or
    /// `unsupportedFormat` with the path and the entry at fault.
    public convenience init(contentsOf url: URL, limits: BundleLimits = .default) throws {
        try self.init(url: url, file: try BundleFile(url: url, limits: limits), limits: limits)
    }

    /// Opens a bundle whose file is open: a format-3 bundle's small manifest and its
    /// segments' indexes, or a format-1 or 2 bundle's whole manifest.
    package convenience init(url: URL, file: BundleFile, limits: BundleLimits) throws {
        do {
            // Any manifest that is not plainly format 3 is decoded whole, whose errors say
            // what is wrong with it in the words every command uses.
            if (try? file.formatVersion(limits: limits)) == HistoryManifest.formatVersion {
                let manifest = try HistoryManifest.decode(file.manifestData)
                let history = try BundleHistory(manifest: manifest, zip: file.zip)
                let head = try history.headVersion()
                self.init(url: url, file: file, history: history, head: head.version, limits: limits)
                if let tree = head.placedTree { placedObjects.mutate { $0[tree.digest] = tree } }
                return
            }
            let manifest = try Self.decodeManifest(file.manifestData, limits: limits)
            self.init(url: url, file: file, manifest: manifest, limits: limits)
        } catch {
            throw Self.locate(error, path: url.relativePath)
        }
    }

    /// A bundle over `file` with the manifest the caller decoded (in part, to read the
    /// head's document alone: see ``headDocument(of:limits:)``).
    package init(url: URL, file: BundleFile, manifest: BundleManifest, limits: BundleLimits) {
        self.url = url
        self.limits = limits
        zip = file.zip
        unfinishedAppendBytes = file.unfinishedAppendBytes
        mimeType = file.mimeType
        headVersion = manifest.headVersion!
        formatVersion = manifest.formatVersion
        contentTypeIdentifier = manifest.contentType
        history = nil
        listing = Protected(manifest)
    }

    private init(url: URL, file: BundleFile, history: BundleHistory, head: BundleVersion, limits: BundleLimits) {
        self.url = url
        self.limits = limits
        zip = file.zip
        unfinishedAppendBytes = file.unfinishedAppendBytes
        mimeType = file.mimeType
        headVersion = head
        formatVersion = HistoryManifest.formatVersion
        contentTypeIdentifier = history.manifest.contentType
        self.history = history
        listing = Protected(nil)
    }

    /// The bundle's manifest: every version and every object. A format-1 or 2 bundle's is
    /// decoded when it opens; a format-3 bundle lists its segments the first time, once,
    /// throwing `malformedInput` naming a damaged segment. Commands that touch a few
    /// versions ask the history instead (``version(atPlace:)``, ``objectRecord(_:)``).
    public var manifest: BundleManifest {
        get throws {
            if let known = listing.value { return known }
            let made = try DocumentKitError.located(at: url.relativePath) {
                try history!.listing { placed in placedObjects.mutate { $0[placed.digest] = placed } }
            }
            listing.mutate { $0 = made }
            return made
        }
    }

    /// The manifest of a format-1 or 2 bundle, decoded when it opened: for code that has
    /// checked that the bundle has no `history`.
    package var decodedManifest: BundleManifest {
        guard history == nil, let decoded = listing.value else {
            preconditionFailure("only a format-1 or 2 bundle's manifest is decoded when it opens")
        }
        return decoded
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
                throw DocumentKitError(
                    .malformedInput,
                    "manifest.json names head \(manifest.head.prefix(12)), which is not one of its versions")
            }
            return manifest
        } catch let error as DocumentKitError {
            throw DocumentKitError(error.code, error.message, location: error.location ?? "manifest.json")
        } catch {
            throw DocumentKitError(
                .malformedInput, "not a valid manifest: \(DecodingErrorDescription.describe(error))",
                location: "manifest.json")
        }
    }

    package static func locate(_ error: any Error, path: String) -> any Error {
        if let error = error as? DocumentKitError { return error.at(path: path) }
        if let error = error as? ArchiveError {
            var converted = DocumentKitError(error)
            converted.path = path
            if error.kind == .notAnArchive { converted.message = "not a DocumentKit bundle: \(error.message)" }
            return converted
        }
        if let error = error as? SystemError {
            var converted = DocumentKitError(error)
            converted.path = path
            return converted
        }
        return error
    }
}
