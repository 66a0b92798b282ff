import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A bundle file opened as far as every reader needs: the zip's central directory, the
/// `mimetype` entry checked, and the manifest's bytes read (not yet decoded).
package struct BundleFile {
    package let zip: StoredZipReader
    package let mimeType: String
    package let manifestData: Data
    package let path: String
    /// Bytes after the zip's end that an unfinished in-place save wrote (it is running, or
    /// was killed); 0 normally. The next save removes them.
    package let unfinishedAppendBytes: UInt64

    /// How many times opening is tried while the file keeps changing under it.
    private static let openingAttempts = 3

    /// Opens the bundle at `url`; throws `missingInput` or `malformedInput` naming the file.
    ///
    /// Readers take no lock, and a save in place that ends while this opens may cover the
    /// old central directory (FORMAT.md §8, step A5) between the reads of the end records
    /// and of the directory they locate, which then reads as malformed. So a failed open is
    /// tried again, up to three times in all, when the file changed meanwhile (its identity
    /// or length, or its append journal came or went): the next try reads the new end. An
    /// open that fails on a file that did not change fails at once.
    package init(url: URL, limits: BundleLimits) throws {
        var attempt = 1
        while true {
            let before = FileFingerprint(url)
            do {
                self = try BundleFile(opening: url, limits: limits)
                return
            } catch {
                guard attempt < Self.openingAttempts, let before, FileFingerprint(url) != before else { throw error }
                attempt += 1
            }
        }
    }

    private init(opening url: URL, limits: BundleLimits) throws {
        path = url.relativePath
        let info = try SystemCall.status(url.path, failing: "cannot open", reportedAs: path)
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DocumentKitError(.malformedInput, "not a bundle: it is not a regular file", path: path)
        }
        do {
            zip = try Self.openZip(url, limits: limits)
            let size = UInt64(clamping: info.st_size)
            unfinishedAppendBytes = size > zip.length ? size - zip.length : 0
            let first = zip.entries.first
            guard let first, first.name == BundleEntry.mimetype else {
                throw DocumentKitError(
                    .malformedInput,
                    """
                    not a DocumentKit bundle: the first entry is \(first.map { "'\($0.name)'" } ?? "missing"), \
                    expected 'mimetype'
                    """
                )
            }
            guard first.size <= 256 else {
                throw DocumentKitError(.malformedInput, "the mimetype entry is too long", location: "entry 'mimetype'")
            }
            mimeType = String(decoding: try zip.readData(first), as: UTF8.self)
            guard zip.entry(named: BundleEntry.manifest) != nil else {
                throw DocumentKitError(.malformedInput, "not a DocumentKit bundle: it has no manifest.json")
            }
            manifestData = try Self.read(
                BundleEntry.manifest, from: zip, path: path, limit: UInt64(limits.maxManifestBytes))
        } catch {
            throw DocumentBundle.locate(error, path: path)
        }
    }

    /// Opens the zip, or, while an in-place save is appending to it (or after one was
    /// killed), the complete zip in front of the append, which its journal locates.
    private static func openZip(_ url: URL, limits: BundleLimits) throws -> StoredZipReader {
        let resolved = AtomicReplacement.resolvingSymbolicLinks(url).path
        func beforeAppend() -> StoredZipReader? {
            guard let journal = AppendJournal.existing(for: resolved),
                let zip = try? StoredZipReader(path: resolved, limits: limits.archive, length: journal.length),
                journal.describes(zip.fileDescriptor, path: resolved)
            else { return nil }
            return zip
        }
        if let zip = beforeAppend() { return zip }
        do {
            return try StoredZipReader(path: url.path, limits: limits.archive)
        } catch {
            // A save may have begun appending between the journal check and the read of
            // the file's end: look again.
            if let zip = beforeAppend() { return zip }
            throw error
        }
    }

    /// Throws unless the manifest is of a format this build reads, decoding no more of it
    /// than its format, version and head: for readers of `state.json`, whatever the length
    /// of the history.
    package func checkManifestHeader(limits: BundleLimits) throws {
        do {
            try BundleManifest.Header.check(
                JSONValue.parseMembers(
                    ["format", "formatVersion", "head"], of: manifestData,
                    depthLimit: limits.maxJSONDepth))
        } catch let error as DocumentKitError {
            throw DocumentKitError(
                error.code, error.message, path: path, location: error.location ?? BundleEntry.manifest)
        }
    }

    /// The manifest's `formatVersion`, checked as one this build reads: all that is
    /// decoded of it to tell a format-3 manifest from an older one.
    package func formatVersion(limits: BundleLimits) throws -> Int {
        let members = try JSONValue.parseMembers(
            ["format", "formatVersion", "head"], of: manifestData, depthLimit: limits.maxJSONDepth)
        try BundleManifest.Header.check(members)
        guard case .integer(let version)? = members["formatVersion"] else {
            preconditionFailure("checked by Header.check")
        }
        return Int(version)
    }

    /// Reads a whole entry, refusing one larger than `limit`; checks its CRC-32 unless
    /// `verifyCRC` is false, for a caller that checks a stronger digest anyway.
    package static func read(
        _ name: String, from zip: StoredZipReader, path: String, limit: UInt64, verifyCRC: Bool = true
    ) throws -> Data {
        try DocumentKitError.located(at: path) {
            guard let entry = zip.entry(named: name) else {
                throw DocumentKitError(.malformedInput, "the bundle has no \(name)")
            }
            guard entry.size <= limit else {
                throw DocumentKitError(.malformedInput, "\(name) is larger than the limit of \(limit) bytes")
            }
            return try zip.readData(entry, verifyCRC: verifyCRC)
        }
    }
}

/// What changes about a bundle file when a save writes it: which file the path names, its
/// length, and whether an append's journal is beside it.
private struct FileFingerprint: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var journal: Bool

    /// The fingerprint of the file at `url` now, or `nil` when it cannot be read.
    init?(_ url: URL) {
        let resolved = AtomicReplacement.resolvingSymbolicLinks(url).path
        guard let info = SystemCall.status(resolved) else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        journal = SystemCall.status(AppendJournal.path(for: resolved)) != nil
    }
}
