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
    /// The bundle's manifest.
    public let manifest: BundleManifest
    /// The MIME type in the `mimetype` entry.
    public let mimeType: String
    package let zip: StoredZipReader
    package let limits: BundleLimits
    /// Bytes an unfinished in-place save left after the bundle's end (see `AppendJournal`).
    package let unfinishedAppendBytes: UInt64
    /// The tree objects decoded so far (see `treeObject(_:)`).
    package let decodedTrees = Protected<[ObjectDigest: TreeObject]>([:])

    /// Bytes of the file that no entry uses: superseded copies of `document.json`, the
    /// manifest and the central directory that in-place saves leave behind. A save
    /// rewrites the bundle without them once they pass a third of the file.
    public var reclaimableBytes: UInt64 { zip.unreferencedBytes }

    /// Opens the bundle at `url`; throws `missingInput`, `malformedInput` or
    /// `unsupportedFormat` with the path and the entry at fault.
    public convenience init(contentsOf url: URL, limits: BundleLimits = .default) throws {
        try self.init(url: url, file: try BundleFile(url: url, limits: limits), limits: limits)
    }

    /// Opens a bundle whose file is open, decoding its whole manifest.
    package convenience init(url: URL, file: BundleFile, limits: BundleLimits) throws {
        let manifest: BundleManifest
        do {
            manifest = try Self.decodeManifest(file.manifestData, limits: limits)
        } catch {
            throw Self.locate(error, path: url.relativePath)
        }
        self.init(url: url, file: file, manifest: manifest, limits: limits)
    }

    /// A bundle over `file` with the manifest the caller decoded (in part, to read the
    /// head's document alone: see ``headDocument(of:limits:)``).
    package init(url: URL, file: BundleFile, manifest: BundleManifest, limits: BundleLimits) {
        self.url = url
        self.limits = limits
        zip = file.zip
        unfinishedAppendBytes = file.unfinishedAppendBytes
        mimeType = file.mimeType
        self.manifest = manifest
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

    package static func locate(_ error: any Error, path: String) -> any Error {
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
}

extension DocumentBundle {
    /// How long a save, or a write of a bundle's state, waits for another writer's lock,
    /// in seconds: as long as it takes (`nil`) unless the program sets a limit; past it
    /// the save fails with `conflict`. docctl sets it from `DOCUMENTKIT_LOCK_TIMEOUT`.
    public static var lockTimeout: TimeInterval? {
        get { BundleLock.defaultTimeout }
        set { BundleLock.defaultTimeout = newValue }
    }

    /// What a save calls, once, when it has waited a second for another writer's lock:
    /// with the bundle as the caller named it and the lock's holder when the system tells
    /// (``LockHolder``). docctl prints who holds the lock and since when. `nil` by default.
    public static var lockWaitHandler: (@Sendable (_ bundle: String, _ holder: LockHolder?) -> Void)? {
        get { BundleLock.waitObserver }
        set { BundleLock.waitObserver = newValue }
    }
}
