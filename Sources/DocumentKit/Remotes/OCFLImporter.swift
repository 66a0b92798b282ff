import Foundation

/// Rebuilds a bundle from an OCFL object DocumentKit archived (FORMAT.md §10): every
/// version's record from its `documentkit/version.json`, its files from the object's
/// content, each checked against the inventory's SHA-512 as it is read, so that the new
/// bundle's version ids, documents and blobs are the archived bundle's.
public enum OCFLImporter {
    /// What an import made.
    public struct Result: Codable, Sendable, Equatable {
        /// The OCFL object's id.
        public var objectID: String
        /// The versions of the new bundle.
        public var versions: Int
        /// Its head version's id.
        public var head: VersionID
        /// Versions whose parents the object does not hold (the archived bundle had pruned them).
        public var pruned: Int
    }

    /// Whether `url` is an OCFL object folder (it holds `0=ocfl_object_1.1`).
    public static func isObject(_ url: URL) -> Bool {
        // A local folder: a file that cannot be read is no object's declaration.
        (try? OCFLObject.isObject(FolderOCFLRoot(root: url), at: "")) ?? false
    }

    /// Imports the OCFL object folder at `objectURL` into a new bundle at `output`.
    public static func importObject(from objectURL: URL, to output: URL, replace: Bool = false) throws -> Result {
        try importObject(at: "", in: FolderOCFLRoot(root: objectURL), to: output, replace: replace)
    }

    /// What importing the object at `path` of `storage` into `output` would make, found by
    /// reading its inventory (checked against its sidecar) and, for the history layout,
    /// its `manifest.json`: the object's id and its bundle versions. Refuses an existing
    /// `output` unless `replace`, as the import does.
    public static func plannedImport(
        at path: String, in storage: any OCFLRootReading, to output: URL,
        replace: Bool = false
    ) throws -> (objectID: String, versions: Int) {
        let inventory = try OCFLObject.readInventory(storage, at: path)
        try AtomicReplacement.refuseExisting(output, replace: replace)
        guard inventory.headLayout == .history else { return (inventory.id, inventory.versions.count) }
        // The history layout holds every bundle version in its head: its manifest counts them.
        let object = OCFLObject(storage: storage, path: path, inventory: inventory, records: [])
        let manifest = try DocumentKitError.located(at: storage.reported(path)) {
            try HistoryManifest.decode(object.file(OCFLLayout.manifestPath, in: inventory.head))
        }
        return (inventory.id, manifest.versions)
    }

    /// Imports the object at `path` of `storage` into a new bundle at `output`. Nothing is
    /// written unless every file checks. Files are read in a stream (a remote's downloaded
    /// first into a scratch folder beside `output`), never whole into memory; those whose
    /// SHA-256 `reusing` holds are taken from it instead.
    ///
    /// With `naming`, `output` only places the new bundle's folder: its name is what
    /// `naming` makes of the head document and content type, once they are read (and an
    /// existing file of that name is refused then). Returns where the bundle was written.
    /// Up to `jobs` files are fetched at once (``prefetch(_:of:sha256:scratch:reusing:jobs:)``).
    @discardableResult
    static func importObject(
        at path: String, in storage: any OCFLRootReading, to output: URL, replace: Bool = false,
        reusing local: DocumentBundle? = nil, jobs: Int = 1,
        naming: ((_ document: Data, _ contentType: String) -> String)?
    ) throws -> (output: URL, result: Result) {
        if naming == nil { try AtomicReplacement.refuseExisting(output, replace: replace) }
        let objectPath = storage.reported(path)
        let scratch = try StagingFolder(beside: output)
        let object = try DocumentKitError.located(at: objectPath) {
            // Progress counts the content files fetched; the inventory and the version
            // records, read first, are small and count nothing.
            let object = try ProgressMeter.bind(nil) { try OCFLObject.read(storage, at: path) }
            guard object.inventory.id.hasPrefix("documentkit:") else {
                throw DocumentKitError(
                    .malformedInput,
                    """
                    the object \(object.inventory.id) was not archived by DocumentKit (its id does not start with \
                    documentkit:)
                    """
                )
            }
            return object
        }
        var output = output
        if object.inventory.headLayout == .history {
            // The import, its segments and the head's document, is let go of before the
            // check, which reads the new bundle as `docctl validate` does: the two together
            // peaked at 82 MiB for the bench bundle.
            let (pending, result) = try DocumentKitError.located(at: objectPath) {
                () throws -> (BundleWriter.PendingBundle, Result) in
                let history = try HistoryImport(object, scratch: scratch.url, jobs: jobs)
                if let naming {
                    output = output.deletingLastPathComponent().appendingPathComponent(
                        naming(history.document, history.reader.manifest.contentType))
                    try AtomicReplacement.refuseExisting(output, replace: replace)
                }
                return (try history.write(to: output), history.result)
            }
            try DocumentKitError.located(at: objectPath) {
                try HistoryImport.checkAndCommit(pending, replace: replace, location: object.inventory.head)
            }
            return (output, result)
        }
        let (contents, result) = try DocumentKitError.located(at: objectPath) {
            try rebuild(object, scratch: scratch.url, reusing: local, jobs: jobs)
        }
        if let naming {
            output = output.deletingLastPathComponent().appendingPathComponent(
                naming(contents.document, contents.manifest.contentType))
            try AtomicReplacement.refuseExisting(output, replace: replace)
        }
        // The scratch folder holds the downloaded files until the bundle is written.
        try withExtendedLifetime(scratch) { try BundleWriter.writeContents(contents, to: output, replace: replace) }
        return (output, result)
    }

    /// Imports the object at `path` of `storage` into a new bundle at `output`. Nothing is
    /// written unless every file checks. Files are read in a stream (a remote's downloaded
    /// first into a scratch folder beside `output`), never whole into memory; those whose
    /// SHA-256 `reusing` holds are taken from it instead. Up to `jobs` files are fetched at
    /// once; with 1, one after another as the import comes to them.
    public static func importObject(
        at path: String, in storage: any OCFLRootReading, to output: URL, replace: Bool = false,
        reusing local: DocumentBundle? = nil, jobs: Int = 1
    ) throws -> Result {
        try importObject(at: path, in: storage, to: output, replace: replace, reusing: local, jobs: jobs, naming: nil)
            .result
    }

    private static func rebuild(_ object: OCFLObject, scratch: URL, reusing local: DocumentBundle?, jobs: Int) throws
        -> (BundleWriter.Contents, Result)
    {
        let sha256 = object.inventory.sha256ByDigest()
        let archived = object.inventory.versionNames.enumerated().map { index, name in
            let state = object.inventory.versions[name]!.state.sorted { $0.key < $1.key }
            let files = state.flatMap { digest, paths in
                paths.filter { $0 != OCFLVersionRecord.path }.map { (path: $0, key: digest) }
            }
            return ExportedHistory.Version(record: object.records[index], location: name, files: files)
        }
        let fetched = try prefetch(archived, of: object, sha256: sha256, scratch: scratch, reusing: local, jobs: jobs)
        let (contents, pruned) = try ExportedHistory.contents(
            archived, reported: object.storage.reported(object.path),
            rootID: rootID(of: object.inventory)
        ) { digest, logicalPath, name in
            try content(
                digest, sha256: sha256[digest], for: logicalPath, in: name, of: object, scratch: scratch,
                reusing: local, fetched: fetched)
        }
        let head = contents.manifest.head
        return (
            contents,
            Result(
                objectID: object.inventory.id, versions: contents.manifest.versions.count, head: head, pruned: pruned)
        )
    }

    /// The version the object's id names (`documentkit:` and the project's first version):
    /// a copy of an object that does not hold it keeps it as pruned (FORMAT.md §10).
    static func rootID(of inventory: OCFLInventory) -> VersionID? {
        let prefix = "documentkit:"
        guard inventory.id.hasPrefix(prefix) else { return nil }
        let id = String(inventory.id.dropFirst(prefix.count))
        // Only an id as versions have them: the id of a hand-made object stays out of the bundle.
        return id.count == 64 && id.allSatisfy(\.isHexDigit) ? id : nil
    }

    /// A file with the bytes of SHA-512 `digest`: the object of `local` with the same
    /// SHA-256 when it has one, else the object's content file, checked (or as `fetched`
    /// already holds it, checked). A content file whose SHA-256 the inventory records is
    /// also checked against that as it is stored.
    static func content(
        _ digest: String, sha256: String?, for logicalPath: String, in name: String, of object: OCFLObject,
        scratch: URL, reusing local: DocumentBundle?, fetched: [String: URL] = [:]
    ) throws -> FileWrapper {
        if let local, let known = sha256.flatMap(ObjectDigest.init(hex:)),
            let record = try local.manifest.objects[known]
        {
            return FileWrapper(object: known, size: record.size, store: local)
        }
        let url = try fetched[digest] ?? object.contentFile(digest, for: logicalPath, in: name, scratch: scratch)
        let file = try FileWrapper(regularFileWithContentsOf: url)
        file.expectedDigest = sha256.flatMap(ObjectDigest.init(hex:))
        return file
    }
}
