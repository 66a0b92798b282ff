import Foundation

extension OCFLImporter {
    /// A bundle rebuilt from an object whose head version is of the history layout
    /// (FORMAT.md §10): the head's files are the bundle's entries, each fetched once and
    /// checked against the inventory's SHA-512, and written as they are; only the head's
    /// document is decoded, through its delta chain. Every file is fetched before the
    /// write, up to `jobs` at once; the bundle is validated before it takes its name.
    struct HistoryImport {
        let reader: OCFLHistoryReader
        let head: BundleVersion
        let document: Data
        let result: Result

        init(_ object: OCFLObject, scratch: URL, jobs: Int) throws {
            reader = try OCFLHistoryReader(object, scratch: scratch)
            try reader.fetchAll(jobs: jobs)
            _ = try reader.allSegments()
            head = try reader.headVersion()
            guard let document = try reader.files(of: head).first(where: { $0.path == VersionLayout.documentName })
            else {
                throw DocumentKitError(
                    .malformedInput, "the head version's tree has no \(VersionLayout.documentName)",
                    location: object.inventory.head)
            }
            self.document = try reader.data(document.digest)
            let manifest = reader.manifest
            result = Result(
                objectID: object.inventory.id, versions: manifest.versions, head: manifest.head, pruned: manifest.pruned
            )
        }

        /// Writes the bundle beside `output`, whole, to be checked and put in place by
        /// ``checkAndCommit(_:replace:location:)`` once this import is let go of.
        func write(to output: URL) throws -> BundleWriter.PendingBundle {
            let files = reader.object.inventory.headFiles.keys
            let alone = files.filter { $0.hasPrefix(BundleEntry.objectsPrefix) }.sorted()
            let parts = try (alone + reader.manifest.history).map { name in
                (name: name, file: try FileWrapper(regularFileWithContentsOf: reader.fetch(name)))
            }
            return try BundleWriter.writeParts(
                mimeType: reader.mimeType, document: document, parts: parts,
                manifest: reader.manifestData, to: output)
        }

        /// Validates the bundle `pending` as `docctl validate` does, but for the head
        /// document's typed read (its digest is checked), then puts it in place: a history
        /// that does not validate (`malformedInput`, at `location`) leaves nothing.
        static func checkAndCommit(_ pending: BundleWriter.PendingBundle, replace: Bool, location: String) throws {
            // The check reads what was written: progress counts the write, not the check.
            let report = try ProgressMeter.bind(nil) {
                try BundleValidator.validate(pending.temporaryURL, checkingSchema: false)
            }
            if let problem = report.findings.first(where: { $0.severity == .error }) {
                throw DocumentKitError(
                    .malformedInput, "the history it holds is not a valid bundle's: \(problem.message)",
                    location: location)
            }
            try pending.commit(replace: replace)
        }
    }
}

extension OCFLImporter {
    /// What a pull's copy holds of an object whose head is of the history layout: the
    /// versions of its newest segments that `local` neither holds nor pruned, fetched
    /// newest first as far as their parents go, and its head; each new file decoded from
    /// those segments, or taken from `local` when it holds it (FORMAT.md §11, "Pull").
    static func missingHistory(of object: OCFLObject, in local: DocumentBundle, scratch: URL) throws
        -> BundleWriter.Contents
    {
        let reader = try OCFLHistoryReader(object, scratch: scratch, local: local)
        // The remote's versions newest first, each walked against the bundle's newest
        // versions, twice as far: a version the bundle holds, and every ancestor of it,
        // is no news. The walks go as far as the histories differ, not further.
        var knowledge = try KnownVersions(local)
        var known = Set<VersionID>()
        var fetched: [BundleVersion] = []
        var taken: [BundleVersion] = []
        while try reader.fetchOlderSegment() {
            let older = try reader.versions(inSegment: reader.segments.count - 1)
            for version in older.reversed()
            where try known.contains(version.id) || knowledge.knows(version.id, steps: 2) {
                known.insert(version.id)
                known.formUnion(version.parents)
            }
            fetched = older + fetched
            taken = fetched.enumerated().filter { !known.contains($0.element.id) || $0.offset == fetched.count - 1 }
                .map(\.element)
            let held = Set(taken.map(\.id)).union(known)
            if try taken.allSatisfy({
                try $0.parents.allSatisfy { try held.contains($0) || knowledge.knows($0, steps: 2) }
            }) {
                break
            }
        }
        let manifest = reader.manifest
        let versions = try taken.map { version in
            ExportedHistory.Version(
                record: OCFLVersionRecord(
                    contentType: manifest.contentType, mimeType: reader.mimeType, version: version),
                location: "\(object.inventory.head) (version \(version.shortID))",
                files: try reader.files(of: version).map { ($0.path, $0.digest.hex) })
        }
        var (contents, _) = try ExportedHistory.contents(
            versions, reported: object.storage.reported(object.path),
            rootID: rootID(of: object.inventory), base: local
        ) { key, _, _ in
            let digest = ObjectDigest(hex: key)!
            if let record = try local.objectRecord(digest) {
                return FileWrapper(object: digest, size: record.size, store: local)
            }
            return FileWrapper(regularFileWithContents: try reader.data(digest))
        }
        try keepHead(of: &contents, from: local)
        // The versions fetched that the copy does not hold: pruned, as far as it knows.
        var listed = Set(taken.map(\.id)).union(contents.manifest.pruned)
        contents.manifest.pruned += fetched.map(\.id).filter { listed.insert($0).inserted }
        BundleManifest.number(&contents.manifest.versions, after: contents.manifest.pruned.count)
        return contents
    }
}
