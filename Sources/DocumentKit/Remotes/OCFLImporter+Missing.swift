import Foundation

extension OCFLImporter {
    /// Writes into a new bundle at `output` only what the object at `path` of `storage`
    /// holds and the bundle `local` lacks (a pull from a remote, FORMAT.md §11): the
    /// object's versions `local` neither holds nor pruned, with the objects of theirs
    /// `local` does not hold, plus the object's head version, so that the copy's head is
    /// the remote's. Every other version of the object is listed in the copy's `pruned`,
    /// so the copy says what the remote holds without holding it.
    ///
    /// A version whose record is the one `local` would write (same SHA-512) is known
    /// without reading it; only new versions' records and the content files `local`
    /// lacks are fetched, each checked as a clone checks it. The work is that of the
    /// change, not of the project: a one-field edit of a project with a large blob
    /// fetches and writes a document and a few trees.
    /// Up to `jobs` files are fetched at once.
    static func importMissingVersions(
        at path: String, in storage: any OCFLRootReading, of local: DocumentBundle, to output: URL, jobs: Int = 1
    ) throws {
        let scratch = try StagingFolder(beside: output)
        let contents = try DocumentKitError.located(at: storage.reported(path)) { () throws -> BundleWriter.Contents in
            // Progress counts the content files fetched; the inventory and records are small.
            let inventory = try ProgressMeter.bind(nil) { try OCFLObject.readInventory(storage, at: path) }
            guard inventory.id.hasPrefix("documentkit:") else {
                throw DocumentKitError(
                    .malformedInput,
                    """
                    the object \(inventory.id) was not archived by DocumentKit (its id does not start with \
                    documentkit:)
                    """
                )
            }
            if inventory.headLayout == .history {
                let object = OCFLObject(storage: storage, path: path, inventory: inventory, records: [])
                return try missingHistory(of: object, in: local, scratch: scratch.url)
            }
            let versions = try ProgressMeter.bind(nil) {
                try objectVersions(inventory, at: path, in: storage, of: local)
            }
            let known = Set(try local.manifest.versions.map(\.id)).union(try local.manifest.pruned)
            let head = inventory.versionNames.count - 1
            let taken = versions.enumerated().filter {
                !known.contains($0.element.record.version.id) || $0.offset == head
            }.map(\.element)
            let object = OCFLObject(storage: storage, path: path, inventory: inventory, records: [])
            let sha256 = inventory.sha256ByDigest()
            let fetched = try prefetch(
                taken, of: object, sha256: sha256, scratch: scratch.url, reusing: local, jobs: jobs)
            var (contents, _) = try ExportedHistory.contents(
                taken, reported: storage.reported(path), rootID: rootID(of: inventory), base: local
            ) { digest, logicalPath, name in
                try content(
                    digest, sha256: sha256[digest], for: logicalPath, in: name, of: object, scratch: scratch.url,
                    reusing: local, fetched: fetched)
            }
            try keepHead(of: &contents, from: local)
            // The object's versions the copy does not hold: pruned, as far as it knows.
            var listed = Set(taken.map(\.record.version.id)).union(contents.manifest.pruned)
            contents.manifest.pruned += versions.map(\.record.version.id).filter { listed.insert($0).inserted }
            BundleManifest.number(&contents.manifest.versions, after: contents.manifest.pruned.count)
            return contents
        }
        try withExtendedLifetime(scratch) { try BundleWriter.writeContents(contents, to: output, replace: false) }
    }

    /// The object's inventory, checked, and each of its versions as ``ExportedHistory``
    /// takes them: the record of a version `local` holds is `local`'s (the object's has
    /// the same SHA-512), any other is fetched and checked.
    private static func objectVersions(
        _ inventory: OCFLInventory, at path: String, in storage: any OCFLRootReading,
        of local: DocumentBundle
    ) throws -> [ExportedHistory.Version] {
        let localRecords = try RemoteObjectSnapshot.recordDigests(of: local)
        let localVersions = Dictionary(
            try local.manifest.versions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let object = OCFLObject(storage: storage, path: path, inventory: inventory, records: [])
        let versions = try inventory.versionNames.map { name -> ExportedHistory.Version in
            let state = inventory.versions[name]!.state
            let recordDigest = state.first { $0.value.contains(OCFLVersionRecord.path) }?.key
            let record: OCFLVersionRecord
            if let recordDigest, let id = localRecords[recordDigest], let version = localVersions[id] {
                record = OCFLVersionRecord(
                    contentType: try local.manifest.contentType, mimeType: local.mimeType, version: version)
            } else {
                record = try OCFLVersionRecord.decode(object.file(OCFLVersionRecord.path, in: name), in: name)
            }
            let files = state.sorted { $0.key < $1.key }.flatMap { digest, paths in
                paths.filter { $0 != OCFLVersionRecord.path }.map { (path: $0, key: digest) }
            }
            return ExportedHistory.Version(record: record, location: name, files: files)
        }
        return versions
    }

    /// Puts the head's root tree and document in the copy even when `local` holds them
    /// (a version that restores an older state): a pull reads the head's document from
    /// the copy. Both are stored whole.
    static func keepHead(of contents: inout BundleWriter.Contents, from local: DocumentBundle) throws {
        guard let head = contents.manifest.versions.last else { return }
        if contents.newObjects[head.tree] == nil {
            let tree = try local.objectData(head.tree)
            contents.newObjects[head.tree] = .data(tree)
            contents.sizes[head.tree] = UInt64(tree.count)
        }
        let document = ObjectDigest.of(contents.document)
        if contents.newObjects[document] == nil {
            contents.newObjects[document] = .data(contents.document)
            contents.sizes[document] = UInt64(contents.document.count)
        }
    }
}
