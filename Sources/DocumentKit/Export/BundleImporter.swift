import Foundation

/// Makes a new bundle from ordinary files: a folder or an archive holding `document.json`
/// (and `blobs/<sha-256>` files for the blobs it refers to), or a JSON file alone.
/// What `BundleExporter` writes, this reads back. The source is only read.
public enum BundleImporter {
    /// Imports `source` into a new bundle at `output` as a `type` document. `schema` is the
    /// schema the source was written with (an export records none), by default the type's
    /// current one; an older one is migrated, a newer one refused (`unsupportedFormat`).
    public static func importDocument(
        from source: URL, to output: URL, type: any CodableDocument.Type,
        schema: String? = nil, metadata: SaveMetadata, replace: Bool = false
    ) throws -> BundleVersion {
        if let schema, SchemaVersion(schema) == nil {
            throw DocumentKitError(.usage, "'\(schema)' is not a schema version (use major.minor.patch, e.g. 1.0.0)")
        }
        let info = try SystemCall.status(source.path, failing: "cannot open", reportedAs: source.relativePath)
        // A FIFO or a device would block the open or never end (/dev/zero): refuse it unread.
        guard [S_IFDIR, S_IFREG].contains(info.st_mode & S_IFMT) else {
            throw DocumentKitError(
                .malformedInput, "not a folder, an archive or a JSON file: it is not a regular file",
                path: source.relativePath)
        }
        // A remote's root holds projects, not a document: clone copies one (issue 23).
        if (info.st_mode & S_IFMT) == S_IFDIR,
            SystemCall.linkStatus(source.appendingPathComponent(OCFLStorageRoot.declaration).path) != nil
        {
            throw DocumentKitError(
                .usage, "is an OCFL storage root (a folder remote), not an export", path: source.relativePath,
                remedy: .cloneInstead(source: source.relativePath, output: output.relativePath))
        }
        try AtomicReplacement.refuseExisting(output, replace: replace)
        let staging = try StagingFolder(beside: output)
        let pending = PendingObjects(base: nil)
        // The source's text is checked as JSON and decoded as it is: no tree of it is built
        // unless a blob reference needs its path named.
        let text = try { () throws -> Data in
            let text: Data
            if (info.st_mode & S_IFMT) == S_IFDIR {
                // A BagIt bag is checked whole first, then its payload read as a folder.
                text = try readFolder(try BagReader.payloadFolder(of: source) ?? source, into: pending)
            } else if try looksLikeJSON(source) {
                text = try DocumentKitError.located(at: source.relativePath) {
                    try checkedJSON(try documentText(OpenFile.forReading(source)), blobs: { _ in nil })
                }
            } else {
                text = try readArchive(source, staging: staging, into: pending)
            }
            return try DocumentKitError.located(at: source.relativePath) {
                guard let schema else { return text }
                let context = DocumentDecodingContext(
                    now: metadata.created, seed: "import/\(ObjectDigest.of(text).hex)", objectSource: pending)
                return try type.migratedJSON(
                    text, schema: schema,
                    to: try DocumentKitConfiguration.current.writeSchemaOverride(for: type)?.versionIdentifier,
                    context: context)
            }
        }()
        MemoryPressure.releaseFreedMemory()
        return try withExtendedLifetime(staging) {
            // What the schema refuses is in the source; errors of writing name the output.
            try DocumentKitError.located(at: source.relativePath) {
                try BundleEdits.createBundle(
                    type, text: consume text, pending: pending, metadata: metadata, url: output, replace: replace)!
            }
        }
    }

    /// The text of the document `file`, refused before a byte is read when it is larger
    /// than a document may be to be parsed.
    private static func documentText(_ file: OpenFile) throws -> Data {
        let limits = BundleLimits.default
        if let size = try? file.status().st_size, UInt64(size) > limits.maxDocumentBytes {
            throw DocumentKitError(.malformedInput, limits.documentTooLarge(UInt64(size)))
        }
        return try file.readAll(limit: Int(limits.maxDocumentBytes))
    }

    private static func looksLikeJSON(_ url: URL) throws -> Bool {
        if url.pathExtension.lowercased() == "json" { return true }
        let head = try OpenFile.forReading(url).readPrefix(64)
        return head.first { !(" \t\r\n".utf8.contains($0)) } == UInt8(ascii: "{")
    }

    /// `text` checked as JSON, as parsing it would check it (the same errors), without its
    /// UTF-8 byte order mark, once every blob it refers to is found by `blobs` (a file,
    /// or `nil` for none). The references are found by a scan of the bytes; the text is
    /// parsed into a tree only when the scan cannot tell, or to name where a reference
    /// whose blob is missing stands, in document order.
    private static func checkedJSON(
        _ text: Data, blobs: (String) -> URL?,
        missing: ([(path: JSONPath, digest: String)]) -> DocumentKitError = missingBlobs
    ) throws -> Data {
        try text.withUnsafeBytes { bytes in
            var checker = JSONWalker<JSONChecker>(bytes: bytes, depthLimit: JSONDepth.defaultLimit)
            _ = try checker.checkDocument()
        }
        let found = BlobReferenceScan.digests(in: text)
        if found == nil || !found!.allSatisfy({ ObjectDigest(hex: $0) != nil && blobs($0) != nil }) {
            let absent = try JSONValue.parse(text).blobReferences().filter {
                ObjectDigest(hex: $0.digest) == nil || blobs($0.digest) == nil
            }
            if !absent.isEmpty { throw missing(absent) }
        }
        return text.starts(with: [0xEF, 0xBB, 0xBF]) ? text.dropFirst(3) : text
    }

    /// What a document alone (a JSON file) says of its references: each blob is missing.
    private static func missingBlobs(_ references: [(path: JSONPath, digest: String)]) -> DocumentKitError {
        DocumentKitError(
            violations: references.map {
                RuleViolation(
                    $0.path.description, "refers to blob \($0.digest.prefix(12)), which is not in the bundle",
                    code: "document.missing-blob")
            })
    }

    private static func readFolder(_ folder: URL, into pending: PendingObjects) throws -> Data {
        let documentURL = folder.appendingPathComponent(VersionLayout.documentName)
        let blobs = folder.appendingPathComponent(VersionLayout.blobsFolder)
        // Exports name blobs readably (FORMAT.md §7, "Exports"): a blob not at
        // `blobs/<digest>` is looked for among the other files there, by their SHA-256.
        var named: [String: URL]?
        let files = BlobFiles { digest in
            let url = blobs.appendingPathComponent(digest)
            if (try? regularFile(url)) != nil { return url }
            if named == nil { named = hashedFiles(in: blobs) }
            return named![digest]
        }
        let text = try DocumentKitError.located(at: documentURL.relativePath) {
            try checkedJSON(try documentText(regularFile(documentURL)), blobs: files.url(of:)) { absent in
                DocumentKitError(
                    .malformedInput,
                    """
                    refers to blob \(absent[0].digest.prefix(12)), but \
                    \(VersionLayout.blobsFolder)/\(absent[0].digest) is missing
                    """,
                    path: documentURL.relativePath, location: absent[0].path.description)
            }
        }
        try addBlobs(files.found, to: pending) { _, url in (url.relativePath, nil) }
        return text
    }

    /// The regular files of `folder` whose names are not digests, by their SHA-256 (the
    /// first in name order, should two hold the same bytes); links are not followed.
    private static func hashedFiles(in folder: URL) -> [String: URL] {
        var found: [String: URL] = [:]
        let names = (try? FileTree.names(in: folder.path)) ?? []
        for name in names.sorted() where ObjectDigest(hex: name) == nil {
            let url = folder.appendingPathComponent(name)
            guard let file = try? regularFile(url) else { continue }
            var hasher = ObjectHasher()
            guard (try? file.stream { hasher.update($0) }) != nil else { continue }
            let digest = hasher.finalize().hex
            if found[digest] == nil { found[digest] = url }
        }
        return found
    }

    /// The blob files a document's references were found in, each looked up once.
    private final class BlobFiles {
        let lookUp: (String) -> URL?
        private(set) var found: [String: URL] = [:]
        init(_ lookUp: @escaping (String) -> URL?) { self.lookUp = lookUp }
        func url(of digest: String) -> URL? {
            if let url = found[digest] { return url }
            let url = lookUp(digest)
            if let url { found[digest] = url }
            return url
        }
    }

    /// Opens a file refusing symbolic links, so an import never reads outside its source.
    private static func regularFile(_ url: URL) throws -> OpenFile {
        guard let info = SystemCall.linkStatus(url.path) else {
            throw DocumentKitError.system("cannot open", path: url.relativePath, errno: errno)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DocumentKitError(
                .malformedInput, "is not a regular file (links are not followed)", path: url.relativePath)
        }
        return try OpenFile.forReading(url)
    }

    /// Adds the blob files `found` (by digest) to `pending`, hashing them all as one phase;
    /// `origin` names where each came from, for errors.
    private static func addBlobs(
        _ found: [String: URL], to pending: PendingObjects,
        origin: (String, URL) -> (path: String, location: String?)
    ) throws {
        let blobs = try found.sorted(by: { $0.key < $1.key }).map {
            ($0.key, $0.value, try FileWrapper(regularFileWithContentsOf: $0.value))
        }
        try ProgressMeter.phase(.hashing, counting: .read, totalBytes: blobs.reduce(0) { $0 + ($1.2.fileSize ?? 0) }) {
            for (digest, url, file) in blobs {
                let (path, location) = origin(digest, url)
                try addBlob(file, named: digest, path: path, location: location, to: pending)
            }
        }
    }

    private static func addBlob(
        _ file: FileWrapper, named hex: String, path: String, location: String?, to pending: PendingObjects
    ) throws {
        var hasher = ObjectHasher()
        try file.streamContents { hasher.update($0) }
        let digest = hasher.finalize()
        guard digest.hex == hex else {
            throw DocumentKitError(
                .malformedInput, "blob is damaged: its SHA-256 is \(digest.short)…, its name says \(hex.prefix(12))…",
                path: path, location: location)
        }
        pending.add(file, digest: digest)
    }

    /// Reads `document.json` and `blobs/*` from a zip or tar, at its root or inside one
    /// top-level folder; blobs go to files in `staging`, never into memory whole.
    private static func readArchive(_ source: URL, staging: StagingFolder, into pending: PendingObjects) throws -> Data
    {
        try DocumentKitError.located(at: source.relativePath) {
            let reader = try ArchiveReader(path: source.relativePath)
            let (document, blobFiles) = try ProgressMeter.phase(.reading, counting: .read, totalBytes: reader.fileSize)
            {
                try readEntries(of: reader, source: source, staging: staging)
            }
            guard let document else {
                throw DocumentKitError(
                    .malformedInput, "the archive holds no document.json (at its root or in one top-level folder)")
            }
            guard UInt64(document.count) <= BundleLimits.default.maxDocumentBytes else {
                throw DocumentKitError(
                    .malformedInput, BundleLimits.default.documentTooLarge(UInt64(document.count)),
                    location: "entry '\(VersionLayout.documentName)'")
            }
            let files = BlobFiles { blobFiles[$0] }
            let text = try checkedJSON(document, blobs: files.url(of:)) { absent in
                DocumentKitError(
                    .malformedInput,
                    "refers to blob \(absent[0].digest.prefix(12)), but the archive has no blobs/\(absent[0].digest)",
                    location: absent[0].path.description)
            }
            try addBlobs(files.found, to: pending) { digest, _ in (source.relativePath, "entry 'blobs/\(digest)'") }
            return text
        }
    }

    /// The archive's `document.json` (if it has one) and its blobs, written to files in
    /// `staging`, by digest.
    private static func readEntries(of reader: ArchiveReader, source: URL, staging: StagingFolder) throws -> (
        Data?, [String: URL]
    ) {
        var document: Data?
        var blobFiles: [String: URL] = [:]
        var seen = Set<String>()
        var namedFiles: [String: URL] = [:]
        var namedCount = 0
        while let entry = try reader.nextEntry() {
            try ArchiveEntryName.validate(entry.name)
            guard seen.insert(ArchiveEntryName.collisionKey(entry.name)).inserted else {
                throw ArchiveError(
                    .duplicateEntry, "the archive holds '\(entry.name)' twice", path: source.relativePath,
                    entry: entry.name)
            }
            if entry.name == BundleEntry.mimetype {
                throw DocumentKitError(
                    .usage, "is already a bundle (it has a mimetype entry); copy it instead of importing it")
            }
            guard entry.kind == .regular || entry.kind == .directory else {
                throw ArchiveError(
                    .unsafeEntry, "links and special files are not imported", path: source.relativePath,
                    entry: entry.name)
            }
            guard entry.kind == .regular else { continue }
            let components = entry.name.split(separator: "/").map(String.init)
            // Accept the files at the root or inside one top-level folder (`proj/…`).
            let local =
                components.first == VersionLayout.blobsFolder || components.count == 1
                ? components : Array(components.dropFirst())
            if local == [VersionLayout.documentName] {
                document = try reader.readData(limit: Int(BundleLimits.default.maxInMemoryObjectBytes))
            } else if local.count == 2, local[0] == VersionLayout.blobsFolder, ObjectDigest(hex: local[1]) != nil {
                let target = staging.url.appendingPathComponent(local[1])
                let file = try staging.writing { try OpenFile.creatingExclusively(target.path) }
                try reader.readData { block in try staging.writing { try file.write(block) } }
                blobFiles[local[1]] = target
            } else if local.count == 2, local[0] == VersionLayout.blobsFolder {
                // A blob under its readable name (FORMAT.md §7, "Exports"): found by its SHA-256.
                namedCount += 1
                let target = staging.url.appendingPathComponent("named-\(namedCount)")
                let file = try staging.writing { try OpenFile.creatingExclusively(target.path) }
                var hasher = ObjectHasher()
                try reader.readData { block in
                    hasher.update(block)
                    try staging.writing { try file.write(block) }
                }
                let digest = hasher.finalize().hex
                if namedFiles[digest] == nil { namedFiles[digest] = target }
            }
        }
        return (document, blobFiles.merging(namedFiles) { byDigest, _ in byDigest })
    }
}
