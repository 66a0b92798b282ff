import Foundation

/// One run of the checks over an opened bundle, collecting findings.
package struct ValidationPass {
    package let bundle: DocumentBundle
    package let deep: Bool
    package internal(set) var findings: [ValidationFinding] = []
    /// The trees checked so far, with the files and folders below each, counted per path.
    private var checkedTrees: [ObjectDigest: Int] = [:]
    /// In a format-3 bundle, the objects stored alone in entries, with their records (the
    /// others are items of the history's segments, which `checkSegments` read).
    var objectsInEntries: [ObjectDigest: ObjectRecord] = [:]
    /// How many versions and distinct objects the bundle holds, once the pass has read them.
    package private(set) var counted: (versions: Int, objects: Int) = (0, 0)

    package init(bundle: DocumentBundle, deep: Bool, checkingSchema: Bool = true) {
        self.bundle = bundle
        self.deep = deep
        self.checkingSchema = checkingSchema
    }

    /// Whether the head's document is read as its type reads it (a clone, which checks the
    /// history it wrote, leaves that to `validate`: the typed read is most of the check's
    /// memory).
    let checkingSchema: Bool

    /// The bundle's manifest: of formats 1 and 2, and of format 3 listed by a deep check
    /// once the history's segments are known to be sound; empty otherwise (the quick check
    /// of a format-3 bundle reads its segments once and never lists them).
    package private(set) var manifest = BundleManifest(contentType: "", head: "", versions: [], objects: [:])

    package mutating func report(
        _ code: String, _ severity: ValidationFinding.Severity, _ message: String,
        entry: String? = nil, version: Int? = nil, path: String? = nil,
        remedy: DocumentKitError.Remedy? = nil
    ) {
        findings.append(
            ValidationFinding(code, severity, message, entry: entry, version: version, path: path, remedy: remedy))
    }

    /// Reports an object that failed to decode: damaged bytes (a digest that does not
    /// match) or bytes that cannot be decoded at all.
    package mutating func reportUnreadableObject(_ error: any Error, entry: String) {
        guard let error = error as? DocumentKitError else {
            return report("object.unreadable", "\(error)", entry: entry)
        }
        report(
            error.message.contains("SHA-256") ? "object.digest-mismatch" : "object.unreadable", error.message,
            entry: entry)
    }

    package mutating func report(
        _ code: String, _ message: String, entry: String? = nil, version: Int? = nil, path: String? = nil
    ) {
        report(code, .error, message, entry: entry, version: version, path: path)
    }

    package mutating func run() {
        if bundle.unfinishedAppendBytes > 0 {
            report(
                "bundle.unfinished-save", .warning,
                """
                a save that did not finish (it is running, or was killed) left \(bundle.unfinishedAppendBytes) \
                bytes after the bundle's end; readers ignore them and the next save removes them
                """
            )
        }
        // The quick check of a format-3 history checks the head first, in memory no other
        // check has used yet: decoding its document is what peaks, as for one version. Its
        // findings are reported where they belong, after the history's.
        var headFindings: [ValidationFinding]?
        if bundle.history != nil, !isListed {
            headFindings = reportedApart { $0.checkHead() }
            MemoryPressure.releaseFreedMemory()
        }
        if bundle.history != nil {
            // Everything after needs every segment readable.
            let segments = checkSegments()
            guard segments.sound else { return }
            counted = (segments.versions, segments.objects)
            checkHistoryCounts(stored: segments.stored)
        }
        if isListed {
            do {
                manifest = try bundle.manifest
            } catch {
                report("history.damaged", error.failureMessage)
                return
            }
            if bundle.history == nil { counted = (manifest.versions.count, manifest.objects.count) }
        }
        checkMimetype()
        checkEntries()
        checkSupersededBytes()
        checkState()
        var oldDocuments: OldDocuments?
        if deep {
            var old = OldDocuments(bundle: bundle, manifest: manifest)
            // What takes the time on a big bundle: reading every object once.
            ProgressMeter.phase(
                .verifying, counting: .read, totalBytes: manifest.objects.values.reduce(0) { $0 + $1.storedSize }
            ) {
                checkObjects()
                checkDeltas(order: old.order(of:)) { pass, digest, data in pass.checkOldDocument(digest, data, &old) }
            }
            // Not held through the head's typed check, which peaks.
            old.previous = nil
            oldDocuments = old
        } else {
            checkObjects()
            // A format-3 history's deltas were checked as its segments were read.
            if bundle.history == nil { checkDeltas() }
        }
        // A format-3 history's records were checked as its segments were read.
        if bundle.history == nil {
            checkVersions()
            checkRecordMembers()
        }
        if let headFindings {
            findings += headFindings
        } else {
            checkHead()
        }
        if var oldDocuments { finishOldDocuments(&oldDocuments) }
    }

    /// Checks the trees (every version's when the history is listed; a format-3 history's
    /// old trees are objects in its segments, which `--deep` checks, FORMAT.md §12.5), and
    /// the head's document.
    private mutating func checkHead() {
        let treesChecked = isListed ? manifest.versions : [bundle.headVersion]
        for version in treesChecked
        where checkTree(version.tree, version: version.number, path: "") > bundle.limits.maxTreeEntries {
            report(
                "tree.too-large",
                """
                the version's tree holds more than \(bundle.limits.maxTreeEntries) files and folders (a folder \
                named twice counts twice)
                """,
                version: version.number)
        }
        checkHeadDocument()
    }

    /// What `checks` reports, taken out of the findings so far.
    mutating func reportedApart(_ checks: (inout ValidationPass) -> Void) -> [ValidationFinding] {
        let before = findings.count
        checks(&self)
        defer { findings.removeSubrange(before...) }
        return Array(findings[before...])
    }

    /// Whether the checks read a listed manifest: of formats 1 and 2 always, of format 3
    /// only for `--deep`, which reads every version anyway.
    private var isListed: Bool { bundle.history == nil || deep }

    /// The record of object `digest`: from the listed manifest, or else looked up in the
    /// segments' indexes (and the head's root tree).
    private func objectRecord(_ digest: ObjectDigest) -> ObjectRecord? {
        isListed ? manifest.objects[digest] : (try? bundle.objectRecord(digest)) ?? nil
    }

    private var contentType: String { bundle.history?.manifest.contentType ?? manifest.contentType }
    private var headID: VersionID { bundle.history?.manifest.head ?? manifest.head }

    private mutating func checkMimetype() {
        let expected =
            DocumentKitConfiguration.current.documentType(for: contentType)?.contentType.mimeType
            ?? DocumentKitConfiguration.current.contentTypes.type(identifier: contentType)?.mimeType
        if let expected, bundle.mimeType != expected {
            report(
                "mimetype.mismatch",
                "the mimetype entry says '\(bundle.mimeType)', but \(contentType) bundles are '\(expected)'",
                entry: BundleEntry.mimetype)
        } else if expected == nil {
            report(
                "document.unknown-type", .warning,
                "this build does not know the content type \(contentType); its schema was not checked")
        }
    }

    private mutating func checkEntries() {
        let fixed: Set<String> = [BundleEntry.mimetype, BundleEntry.document, BundleEntry.manifest, BundleEntry.state]
        for entry in bundle.zip.entries {
            do {
                try bundle.zip.verifyLocalHeader(entry, allowingStaleName: false)
            } catch {
                report("entry.header-mismatch", error.failureMessage, entry: entry.name)
            }
            if fixed.contains(entry.name) { continue }
            if let history = bundle.history, entry.name.hasPrefix(BundleEntry.historyPrefix) {
                if !history.manifest.history.contains(entry.name) {
                    report(
                        "entry.unexpected", .warning,
                        "a history segment manifest.json does not name; readers ignore it", entry: entry.name)
                }
                continue
            }
            guard entry.name.hasPrefix(BundleEntry.objectsPrefix) else {
                report(
                    "entry.unexpected", .warning, "not part of the bundle format; readers ignore it", entry: entry.name)
                continue
            }
            let hex = entry.name.dropFirst(BundleEntry.objectsPrefix.count).replacingOccurrences(of: "/", with: "")
            guard let digest = ObjectDigest(hex: hex), digest.entryName == entry.name else {
                report("entry.unexpected", .warning, "not a valid object name", entry: entry.name)
                continue
            }
            if bundle.history == nil ? manifest.objects[digest] == nil : objectsInEntries[digest] == nil {
                report(
                    "object.unlisted", .warning, "object is stored but not listed in the manifest", entry: entry.name)
            }
        }
        if bundle.zip.entry(named: BundleEntry.document) == nil {
            report("document.missing", "the bundle has no document.json")
        }
    }

    private mutating func checkObjects() {
        let objects = isListed ? manifest.objects : objectsInEntries
        for (digest, record) in objects.sorted(by: { $0.key < $1.key }) {
            if bundle.history != nil, objectsInEntries[digest] == nil {
                checkHistoryItem(digest, record)
                continue
            }
            guard let entry = bundle.zip.entry(named: digest.entryName) else {
                report(
                    "object.missing", "object \(digest.short) is listed in the manifest but not stored",
                    entry: digest.entryName)
                continue
            }
            if entry.size != record.storedSize {
                report(
                    "object.size-mismatch",
                    "stored size is \(entry.size) bytes, the manifest says \(record.storedSize)",
                    entry: digest.entryName)
                continue
            }
            if record.codec == .identity, record.size != record.storedSize {
                report(
                    "object.size-mismatch",
                    "an identity object's size (\(record.size)) must equal its stored size (\(record.storedSize))",
                    entry: digest.entryName)
                continue
            }
            // Deltas are checked chain by chain (checkDeltas), so each link is decoded once.
            guard deep, record.codec != .delta else { continue }
            do {
                var hasher = ObjectHasher()
                try bundle.streamObject(digest) { hasher.update($0) }
                if hasher.byteCount != record.size {
                    report(
                        "object.size-mismatch",
                        "object decodes to \(hasher.byteCount) bytes, the manifest says \(record.size)",
                        entry: digest.entryName)
                }
            } catch {
                reportUnreadableObject(error, entry: digest.entryName)
            }
        }
    }

    /// Checks an object a format-3 history holds in an item (its size the segment reader
    /// checked): decoded and hashed, when deep and not a delta (`checkDeltas` takes those).
    private mutating func checkHistoryItem(_ digest: ObjectDigest, _ record: ObjectRecord) {
        guard deep, record.codec != .delta else { return }
        do {
            _ = try bundle.validateObject(digest, base: nil)
        } catch {
            reportUnreadableObject(error, entry: bundle.objectLocation(digest))
        }
    }

    /// Checks a tree and everything below it, each tree object once, and returns how many
    /// files and folders hang below it, counted per path (saturating past the limit).
    @discardableResult
    private mutating func checkTree(_ digest: ObjectDigest, version: Int, path: String, depth: Int = 0) -> Int {
        if let count = checkedTrees[digest] { return count }
        checkedTrees[digest] = 0
        guard objectRecord(digest) != nil else { return 0 }
        guard depth < bundle.limits.maxTreeDepth else {
            report(
                "tree.too-deep", "folders are nested more than \(bundle.limits.maxTreeDepth) levels deep",
                version: version, path: path)
            return 0
        }
        let tree: TreeObject
        do {
            tree = try TreeObject.decode(try bundle.objectData(digest), digest: digest)
        } catch {
            report(
                "tree.invalid", error.failureMessage, entry: digest.entryName,
                version: version, path: path.isEmpty ? nil : path)
            return 0
        }
        var count = 0
        for entry in tree.entries {
            count = min(count + 1, bundle.limits.maxTreeEntries + 1)
            let childPath = path.isEmpty ? entry.name : "\(path)/\(entry.name)"
            guard let record = objectRecord(entry.digest) else {
                report(
                    "tree.object-missing",
                    "'\(childPath)' refers to object \(entry.digest.short), which the manifest does not list",
                    entry: digest.entryName, version: version)
                continue
            }
            switch entry.kind {
            case .tree:
                count = min(
                    count + checkTree(entry.digest, version: version, path: childPath, depth: depth + 1),
                    bundle.limits.maxTreeEntries + 1)
            case .file:
                if let size = entry.size, size != record.size {
                    report(
                        "tree.size-mismatch", "'\(childPath)' is listed as \(size) bytes, its object is \(record.size)",
                        entry: digest.entryName, version: version)
                }
            }
        }
        checkedTrees[digest] = count
        return count
    }

    private mutating func checkHeadDocument() {
        guard let head = isListed ? manifest.headVersion : bundle.headVersion,
            bundle.zip.entry(named: BundleEntry.document) != nil
        else { return }
        let data: Data
        do {
            data = try bundle.headDocumentData()
        } catch {
            report(
                "document.unreadable", error.failureMessage, entry: BundleEntry.document,
                version: head.number)
            return
        }
        if let tree = try? bundle.tree(of: head), let stored = tree[VersionLayout.documentName]?.knownDigest,
            ObjectDigest.of(data) != stored
        {
            report(
                "document.stale", "document.json differs from the head version's document", entry: BundleEntry.document,
                version: head.number)
        }
        guard UInt64(data.count) <= bundle.limits.maxDocumentBytes else {
            report(
                "document.too-large", bundle.limits.documentTooLarge(UInt64(data.count)), entry: BundleEntry.document,
                version: head.number)
            return
        }
        if checkingSchema { checkDocument(data, version: head) }
    }

    package mutating func checkDocument(_ data: Data, version: BundleVersion) {
        // Only the blob references are kept from the parsed tree, which is released (and its
        // memory returned) before the typed decode below builds the document a second way.
        let references: [(path: JSONPath, digest: String)]
        do {
            references = try JSONValue.parse(data).blobReferences()
        } catch {
            report(
                "document.invalid-json", error.failureMessage,
                entry: BundleEntry.document, version: version.number)
            return
        }
        MemoryPressure.releaseFreedMemory()
        let blobs = (try? bundle.tree(of: version))?[VersionLayout.blobsFolder]?.fileWrappers ?? [:]
        for reference in references {
            guard let digest = ObjectDigest(hex: reference.digest), objectRecord(digest) != nil,
                blobs[digest.hex] != nil
            else {
                report(
                    "blob.unresolved", "refers to blob \(reference.digest.prefix(12)), which the version does not hold",
                    version: version.number, path: reference.path.description)
                continue
            }
        }
        guard let type = DocumentKitConfiguration.current.documentType(for: contentType) else { return }
        guard checkSchema(of: version, as: type) else { return }
        do {
            // Read as the type reads it: an older schema is migrated first, and a document
            // its stages refuse is as unreadable as one the current schema refuses.
            _ = try type.decode(
                data, schema: version.schema, context: DocumentDecodingContext(now: version.created, seed: version.id))
        } catch let error as DocumentKitError where !error.violations.isEmpty {
            // Decoded, but rules are broken: each is its own finding, under its own code.
            for violation in error.violations {
                report(
                    violation.code, violation.message, entry: version.id == headID ? BundleEntry.document : nil,
                    version: version.number, path: violation.path.isEmpty ? nil : violation.path)
            }
        } catch let error as DocumentKitError {
            report(
                "document.schema", error.message, entry: version.id == headID ? BundleEntry.document : nil,
                version: version.number, path: error.location)
        } catch {
            report("document.schema", "\(error)", version: version.number)
        }
    }

    /// Reports a schema this build reads only by migrating (a warning, for the head: `docctl
    /// migrate` would save it in the current schema), one newer than it knows or one it does
    /// not know at all (errors). Returns whether the document can be decoded.
    private mutating func checkSchema(of version: BundleVersion, as type: any CodableDocument.Type) -> Bool {
        let migration: SchemaMigration
        do {
            migration = try type.migration(from: version.schema)
        } catch let error as DocumentKitError {
            let newer = SchemaVersion(version.schema).map { $0 > type.schemaVersion } ?? false
            report(newer ? "document.schema-newer" : "document.schema-unknown", error.message, version: version.number)
            return false
        } catch {
            report("document.schema-unknown", "\(error)", version: version.number)
            return false
        }
        if version.id == headID, migration.from != migration.to {
            let stages = migration.stages.isEmpty ? "" : " (\(migration.stages.map(\.id).joined(separator: ", ")))"
            report(
                "document.schema-version", .warning,
                """
                written with schema \(migration.from); this build migrates it to \(migration.to) when \
                reading\(stages)
                """,
                version: version.number, remedy: .saveInCurrentSchema)
        }
        return true
    }
}
