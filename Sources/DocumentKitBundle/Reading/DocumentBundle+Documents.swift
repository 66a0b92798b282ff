import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension DocumentBundle {
    /// The head version's document JSON, checked against the digest the head's tree records
    /// for it, reading no more of the manifest than the head needs: the fast path for
    /// `docctl cat`, whatever the length of the history.
    ///
    /// Throws `malformedInput` when `document.json` is not the head's document (stale or
    /// damaged) and when the manifest's head is not one of its versions.
    public static func headDocument(of url: URL, limits: BundleLimits = .default) throws -> Data {
        let file = try BundleFile(url: url, limits: limits)
        let head: BundleManifest.HeadRecords?
        do {
            head = try BundleManifest.headRecords(in: file.manifestData, limits: limits)
        } catch let error as DocumentKitError {
            throw DocumentKitError(
                error.code, error.message, path: file.path, location: error.location ?? BundleEntry.manifest)
        }
        // A tree stored as a delta needs its bases' records, which only the whole manifest has;
        // and whatever the quick look did not find, the whole manifest says what is wrong with.
        guard let head, head.tree.codec != .delta else {
            let bundle = try DocumentBundle(url: url, file: file, limits: limits)
            return try bundle.documentData(of: bundle.headVersion)
        }
        // A bundle that knows the head and its root tree: all that reading the head's document takes.
        let manifest = BundleManifest(
            contentType: head.contentType, head: head.version.id, versions: [head.version],
            objects: [head.version.tree: head.tree])
        return try DocumentBundle(url: url, file: file, manifest: manifest, limits: limits).documentData(
            of: head.version)
    }

    /// The head document's JSON, as stored in the `document.json` entry, unchecked: for
    /// validating a bundle, which compares it with the head itself. Readers that hand the
    /// document out, and edits, use ``documentData(of:)``.
    public func headDocumentData() throws -> Data {
        try BundleFile.read(
            BundleEntry.document, from: zip, path: url.relativePath, limit: limits.maxInMemoryObjectBytes)
    }

    /// The document JSON of `version`, checked against the digest its tree records: for the
    /// head, the `document.json` entry (throwing `malformedInput` if it is not that
    /// document); for any other version, its object, rebuilt through its deltas.
    public func documentData(of version: BundleVersion) throws -> Data {
        try documentData(of: version, digest: documentEntry(of: version).digest)
    }

    /// The document JSON of `version`, whose tree records `digest` for it.
    private func documentData(of version: BundleVersion, digest: ObjectDigest) throws -> Data {
        guard version.id == headVersion.id else {
            return try objectData(digest, reaching: nil, storedBy: version.number)
        }
        let data = try readHeadDocument()
        try Self.checkHeadDocument(data, is: digest, version: version.number, path: url.relativePath)
        return data
    }

    /// The document JSON of `version`, as `documentData(of:)` gives it, for parsing: refused
    /// (`malformedInput`) by the size its tree records, before a byte of it is read, when
    /// it is larger than `limits.maxDocumentBytes`.
    package func documentDataForParsing(of version: BundleVersion) throws -> Data {
        try documentData(of: version, digest: checkParsableSize(of: version))
    }

    /// ``documentDataForParsing(of:)``, whose delta chain stops at `held` when it reaches
    /// it (``objectData(_:reaching:)``): a walk through the versions oldest first, holding
    /// the last document it read, decodes each next one from it, one link, where each
    /// alone would be decoded through its whole chain. The version's document itself when
    /// `held` is it.
    package func documentDataForParsing(of version: BundleVersion, reaching held: HeldObject?) throws -> Data {
        let digest = try checkParsableSize(of: version)
        if let held, held.digest == digest { return held.data }
        guard version.id != headVersion.id, let held else { return try documentData(of: version, digest: digest) }
        return try objectData(digest, reaching: held, storedBy: version.number)
    }

    /// The head's document JSON for parsing, as `documentDataForParsing(of:)` reads it, with
    /// its check against the head's digest running on another thread: the caller may scan
    /// the bytes meanwhile (an edit splicing a 40 MB document checks its text in the same
    /// time), and must wait for `check` before anything it made of them counts.
    package func headDocumentCheckedInBackground() throws -> (data: Data, check: BackgroundWork<Void>) {
        let version = headVersion
        let digest = try checkParsableSize(of: version)
        let data = try readHeadDocument()
        let (number, path) = (version.number, url.relativePath)
        return (data, BackgroundWork { try Self.checkHeadDocument(data, is: digest, version: number, path: path) })
    }

    /// The `document.json` entry, checked in a stream against the digest the head's tree
    /// records for it (`malformedInput` if it is not that document): for a writer that
    /// copies it as it is (a pack, a prune), holding a block of it at a time.
    package func checkedHeadDocumentEntry() throws -> StoredZipEntry {
        let version = headVersion
        let digest = try documentEntry(of: version).digest
        guard let entry = zip.entry(named: BundleEntry.document) else {
            throw DocumentKitError(.malformedInput, "the bundle has no document.json", path: url.relativePath)
        }
        var hasher = ObjectHasher()
        try DocumentKitError.located(at: url.relativePath) { try zip.stream(entry) { hasher.update($0) } }
        let actual = hasher.finalize()
        guard actual == digest else {
            throw DocumentKitError(
                .malformedInput,
                """
                differs from the head version's document (version \(version.number)): its SHA-256 is \
                \(actual.short)…, expected \(digest.short)…
                """,
                path: url.relativePath, location: "entry '\(BundleEntry.document)'")
        }
        return entry
    }

    /// Refuses a document larger than `limits.maxDocumentBytes`; returns its digest.
    private func checkParsableSize(of version: BundleVersion) throws -> ObjectDigest {
        let entry = try documentEntry(of: version)
        guard entry.size <= limits.maxDocumentBytes else {
            throw DocumentKitError(
                .malformedInput, limits.documentTooLarge(entry.size), path: url.relativePath,
                location: documentLocation(of: version))
        }
        return entry.digest
    }

    /// The `document.json` entry's bytes. The digest is a stronger check than the entry's
    /// CRC-32, and this is the one read of a 7 MB document whose cost `docctl cat` shows:
    /// the CRC is left out.
    private func readHeadDocument() throws -> Data {
        try BundleFile.read(
            BundleEntry.document, from: zip, path: url.relativePath, limit: limits.maxInMemoryObjectBytes,
            verifyCRC: false)
    }

    /// Throws `malformedInput` unless `data`, the `document.json` of the bundle at `path`,
    /// has the digest of the head's document (version `version`).
    private static func checkHeadDocument(_ data: Data, is digest: ObjectDigest, version: Int, path: String) throws {
        let actual = ObjectDigest.of(data)
        guard actual == digest else {
            throw DocumentKitError(
                .malformedInput,
                """
                differs from the head version's document (version \(version)): its SHA-256 is \(actual.short)…, \
                expected \(digest.short)…
                """,
                path: path, location: "entry '\(BundleEntry.document)'")
        }
    }

    /// Where a version's document is, for messages: the `document.json` entry for the head,
    /// else the version.
    package func documentLocation(of version: BundleVersion) -> String {
        version.id == headVersion.id ? "entry '\(BundleEntry.document)'" : "document.json of version \(version.number)"
    }

    /// The head's document, read from `document.json` and checked against its digest.
    package func heldHeadDocument() throws -> HeldObject {
        let version = headVersion
        return HeldObject(digest: try documentDigest(of: version), data: try documentData(of: version))
    }

    /// The digest of `version`'s `document.json`, from its root tree object.
    package func documentDigest(of version: BundleVersion) throws -> ObjectDigest {
        try documentEntry(of: version).digest
    }

    /// The digest and size of `version`'s `document.json`, from its root tree object alone:
    /// the rest of the tree is neither read nor measured.
    private func documentEntry(of version: BundleVersion) throws -> (digest: ObjectDigest, size: UInt64) {
        try DocumentKitError.located(at: url.relativePath) {
            let root = try treeObject(version.tree)
            guard let entry = root.entries.first(where: { $0.name == VersionLayout.documentName }), entry.kind == .file
            else {
                throw DocumentKitError(.malformedInput, "version \(version.number) has no document.json")
            }
            return (entry.digest, entry.size ?? 0)
        }
    }
}
