import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// Writes a bundle: the base bundle's history and objects, plus one new version.
///
/// Objects the base already has are never decoded, re-compressed or re-hashed: a save in
/// place leaves them where they are and appends only what changed; a rewrite copies
/// their stored bytes. Either way the save is atomic (see `appendInPlace`).
package enum BundleWriter {
    /// Objects read from files at most this large are tried with zstd; larger ones (a
    /// video, an archive) are stored as they are, and stream in and out without a copy.
    package static let compressionLimit: UInt64 = 16 << 20
    /// Objects held in memory (a save's document, above all) are tried with zstd up to
    /// this size, the largest document DocumentKit parses (`BundleLimits.maxDocumentBytes`):
    /// they are in memory whole anyway, and a 38 MB document of 100,000 tasks is then
    /// stored in 3 MB, and as a small delta once it is old, instead of whole twice.
    package static let inMemoryCompressionLimit: UInt64 = 64 << 20
    /// Objects smaller than this are never compressed: the frame would cost more than it saves.
    package static let compressionFloor: UInt64 = 128

    package struct Request {
        package var root: FileWrapper
        /// The content type's identifier and MIME type, for the manifest and the
        /// `mimetype` entry.
        package var contentType: String
        package var mimeType: String
        package var schema: String
        package var metadata: SaveMetadata
        package var base: DocumentBundle?
        package var destination: URL
        /// Whether an existing file at `destination` may be replaced.
        package var replace: Bool
        /// Whether the save may append to `base` in place: only under the bundle's writer
        /// lock, with `base` opened under it and `destination` its file.
        package var inPlace = false
        /// The changes from the base's head document to the new one, when the caller knows
        /// them (an edit that spliced one record); otherwise the save diffs the two texts.
        package var documentChanges: JSONChangeList?
        /// The base's head document, when the caller has read it already, checked against
        /// the digest the head's tree records (`DocumentBundle.documentData(of:)`).
        package var baseDocument: Data?
        /// Another copy's versions and objects, added after the base's and before the new
        /// version (a pull), and that copy's head, the new version's second parent (a merge).
        package var incoming: Incoming?
        /// Whether the save writes format 3 (FORMAT.md §12): when the metadata asks for
        /// it, or the base is of format 3, which a save never takes back to an older layout.
        var writesHistory: Bool { metadata.formatVersion >= HistoryManifest.formatVersion || base?.history != nil }

        package init(
            root: FileWrapper, contentType: String, mimeType: String, schema: String, metadata: SaveMetadata,
            base: DocumentBundle? = nil, destination: URL, replace: Bool,
            documentChanges: JSONChangeList? = nil, baseDocument: Data? = nil
        ) {
            self.root = root
            self.contentType = contentType
            self.mimeType = mimeType
            self.schema = schema
            self.metadata = metadata
            self.base = base
            self.destination = destination
            self.replace = replace
            self.documentChanges = documentChanges
            self.baseDocument = baseDocument
        }
    }

    /// Writes the bundle; returns the new version, or `nil` when the tree and schema equal
    /// the base's head (nothing is written then). A migration that leaves the bytes as they
    /// were still saves a version, recording the new schema.
    package static func write(_ request: Request) throws -> BundleVersion? {
        let planner = TreePlanner(base: request.base)
        // A pull appends another copy's versions to a format-3 history; one that cannot
        // (into an older layout, or bringing pruned ids) rewrites it (`writeSegmentedContents`).
        let segmented =
            request.writesHistory
            && request.incoming.map { incoming in request.base.map { appendsIncoming(incoming, to: $0) } ?? false }
                ?? true
        let compressingDocument =
            segmented
            ? nil
            : startCompressing(request.root[VersionLayout.documentName], compression: request.metadata.compression)
        let rootTree = try planner.storeTree(request.root)
        // A merge is a version even when its tree is ours: it records the second parent.
        if let base = request.base, request.incoming == nil, base.headVersion.tree == rootTree,
            base.headVersion.schema == request.schema
        {
            return nil
        }
        guard let documentFile = request.root[VersionLayout.documentName], documentFile.isRegularFile else {
            throw DocumentKitError(
                .invalidDocument, "a bundle's tree needs a \(VersionLayout.documentName) at its root")
        }
        var compressing: [ObjectDigest: BackgroundWork<Data>] = [:]
        if let compressingDocument, let digest = planner.digest(of: documentFile), planner.pending[digest] != nil {
            compressing[digest] = compressingDocument
        }
        let documentJSON = try documentFile.regularFileContents()

        var newObjects = planner.pending
        var changes: VersionChanges?
        var baseDocument: (digest: ObjectDigest, data: Data)?
        if let base = request.base {
            // The typed document that produced the new tree is gone: give its memory back
            // before holding two documents and diffing them.
            MemoryPressure.releaseFreedMemory()
            let oldDocument = try request.baseDocument ?? base.headDocumentData()
            let oldTree = try base.tree(of: base.headVersion)
            var documentChanges: JSONChangeList
            if let known = request.documentChanges {
                documentChanges = known
            } else {
                documentChanges = JSONChangeList(limit: VersionChanges.limit)
                try JSONValue.collectChanges(from: oldDocument, to: documentJSON, into: &documentChanges)
            }
            changes = VersionChanges(
                changes: documentChanges, blobs: BlobChange.changes(from: oldTree, to: request.root))
            // A base document the caller read is checked against the head's digest; the new
            // one the planner hashed a moment ago.
            let oldDigest = request.baseDocument == nil ? nil : oldTree[VersionLayout.documentName]?.knownDigest
            if segmented {
                baseDocument = (oldDigest ?? ObjectDigest.of(oldDocument), oldDocument)
            } else {
                for (digest, object) in try DocumentHistoryEncoding.reencode(
                    oldDocument: oldDocument, oldDigest: oldDigest, newDocument: documentJSON,
                    newDigest: planner.digest(of: documentFile), in: base)
                {
                    newObjects[digest] = object
                }
            }
        }
        func version(number: Int, parents: [VersionID]) throws -> BundleVersion {
            var version = BundleVersion(
                number: number, parents: parents, created: request.metadata.created, author: request.metadata.author,
                message: request.metadata.message, schema: request.schema, tree: rootTree, changes: changes)
            if let key = request.metadata.signingKey {
                version.signature = try VersionSignature(signing: version.id, with: key)
            }
            return version
        }
        if segmented {
            let parents =
                (request.base.map { [$0.headVersion.id] } ?? [])
                + (request.incoming.map { [$0.source.headVersion.id] } ?? [])
            let new = try version(
                number: (request.base?.places.upperBound ?? 0) + (request.incoming?.versions.count ?? 0) + 1,
                parents: parents)
            if request.metadata.dryRun { return new }
            try writeHistory(
                try planHistorySave(
                    request, version: new, planner: planner, document: documentJSON,
                    documentDigest: planner.digest(of: documentFile), baseDocument: baseDocument))
            return new
        }
        let previous = try request.base?.manifest
        var history = previous.map { ($0.versions, $0.pruned, $0.objects) } ?? ([], [], [:])
        if let incoming = request.incoming {
            history = try incoming.added(to: history)
            // The head's document stays stored whole (FORMAT.md §4), even when the other
            // copy holds the same text as an old document, a delta.
            let document = planner.digest(of: documentFile)
            let sourceObjects = try incoming.source.manifest.objects
            for (digest, object) in incoming.copies() where digest != document || sourceObjects[digest]?.codec != .delta
            {
                newObjects[digest] = object
            }
        }
        let new = try version(
            number: history.1.count + history.0.count + 1,
            parents: (previous.map { [$0.head] } ?? []) + (request.incoming.map { [$0.source.headVersion.id] } ?? []))
        if request.metadata.dryRun { return new }
        var manifest = BundleManifest(
            contentType: request.contentType, head: new.id, versions: history.0 + [new],
            objects: history.2, pruned: history.1)
        if request.writesHistory { manifest.formatVersion = HistoryManifest.formatVersion }
        try writeContents(
            Contents(
                mimeType: request.mimeType, document: documentJSON, manifest: manifest,
                newObjects: newObjects, sizes: planner.sizes, base: request.base,
                compression: request.metadata.compression, compressing: compressing),
            to: request.destination, replace: request.replace, inPlace: request.inPlace)
        return new
    }

    /// Everything a bundle file holds, ready to be written.
    package struct Contents {
        package var mimeType: String
        package var document: Data
        /// The manifest; its `objects` are completed with the new objects' records.
        package var manifest: BundleManifest
        /// Objects to write now, by digest; every other object of the manifest is copied
        /// raw from `base`.
        package var newObjects: [ObjectDigest: TreePlanner.PendingObject] = [:]
        package var sizes: [ObjectDigest: UInt64] = [:]
        /// The bundle whose objects are carried over as they are.
        package var base: DocumentBundle?
        /// How the new objects are stored; deltas (already encoded) are stored as they are.
        package var compression: ObjectCompression = .zstd
        /// New objects already being compressed (`startCompressing`).
        package var compressing: [ObjectDigest: BackgroundWork<Data>] = [:]

        package init(
            mimeType: String, document: Data, manifest: BundleManifest,
            newObjects: [ObjectDigest: TreePlanner.PendingObject] = [:], sizes: [ObjectDigest: UInt64] = [:],
            base: DocumentBundle? = nil, compression: ObjectCompression = .zstd,
            compressing: [ObjectDigest: BackgroundWork<Data>] = [:]
        ) {
            self.mimeType = mimeType
            self.document = document
            self.manifest = manifest
            self.newObjects = newObjects
            self.sizes = sizes
            self.base = base
            self.compression = compression
            self.compressing = compressing
        }
    }

    /// Writes `contents` to `destination`: in place, appending to the base bundle, when
    /// `inPlace` allows it and the base is the destination (see `appendInPlace`);
    /// otherwise to a temporary file beside `destination`, moved into place atomically
    /// and keeping the permissions and owner of the file it replaces.
    package static func writeContents(_ contents: Contents, to destination: URL, replace: Bool, inPlace: Bool = false)
        throws
    {
        // A whole format-3 history is written anew: an append in place is a save's (`writeHistory`).
        let inPlace = inPlace && contents.manifest.formatVersion < HistoryManifest.formatVersion
        if replace { try AtomicReplacement.refuseReadOnly(destination) }
        // The total is that of the write that will happen: an append of the new entries, or
        // (when the bundle is due to be compacted) a rewrite of it all, not one then the other.
        // Worked out only when someone watches the progress.
        try ProgressMeter.phase(
            .writing, counting: .written,
            totalBytes: bytesToWrite(
                contents,
                inPlace: inPlace
                    && contents.base.map { wouldAppendInPlace(contents, to: $0, destination: destination) } == true)
        ) {
            if inPlace, let base = contents.base, try appendInPlace(contents, to: base, destination: destination) {
                return
            }
            try writeRewriting(contents, to: destination, replace: replace)
        }
    }

    /// What a write of `contents` puts in entries, for its progress: the document and the
    /// new objects, and for a rewrite also the objects copied from the base.
    private static func bytesToWrite(_ contents: Contents, inPlace: Bool) -> UInt64 {
        let written = contents.newObjects.keys.reduce(UInt64(contents.document.count)) {
            $0 + (contents.sizes[$1] ?? 0)
        }
        guard !inPlace else { return written }
        // An estimate: a format-3 base that cannot list its history fails the write itself.
        let baseObjects = (try? contents.base?.manifest.objects) ?? [:]
        return contents.manifest.objects.keys.reduce(written) { total, digest in
            contents.newObjects[digest] == nil ? total + (baseObjects[digest]?.storedSize ?? 0) : total
        }
    }

    private static func writeRewriting(_ contents: Contents, to destination: URL, replace: Bool) throws {
        try writeWhole(to: destination, replace: replace) { zip in
            try zip.addEntry(name: BundleEntry.mimetype, data: Data(contents.mimeType.utf8))
            try writeEntries(contents, to: zip) { entry, base in try zip.copyEntry(entry, from: base.zip) }
        }
    }

    /// Writes a whole bundle, every entry given to `write` in order, to a temporary file
    /// beside `destination`, and moves it into place (R1 to R4 of FORMAT.md §8): over the
    /// file there only when `replace`, keeping that file's permissions and owner.
    static func writeWhole(to destination: URL, replace: Bool, _ write: (StoredZipWriter) throws -> Void) throws {
        let output = try AtomicReplacement(destination: destination)
        let zip = StoredZipWriter(fileDescriptor: output.file.descriptor, path: destination.relativePath)
        try DocumentKitError.located(at: destination.relativePath) {
            try write(zip)
            try zip.finish()
        }
        if replace {
            try commitReplacing(output)
        } else {
            try output.commitWithoutReplacing(mode: AtomicReplacement.defaultMode())
        }
    }

    /// Moves a rewritten bundle over the file it replaces, keeping that file's permissions
    /// and owner (a new file's are the umask's).
    package static func commitReplacing(_ output: AtomicReplacement) throws {
        if let info = SystemCall.status(output.destination.path) {
            try output.commit(mode: info.st_mode & 0o7777, owner: (info.st_uid, info.st_gid))
        } else {
            try output.commit(mode: AtomicReplacement.defaultMode())
        }
    }

    /// Writes everything after `mimetype`: `document.json`, every object (new ones written,
    /// the base's passed to `carry`), the manifest, completed with the new objects' records,
    /// and the base's `state.json`, if it has one, passed to `carry` as it is. A manifest of
    /// format 3 has it written in that layout (`writeSegmentedContents`).
    package static func writeEntries(
        _ contents: Contents, to zip: StoredZipWriter,
        carry: (StoredZipEntry, DocumentBundle) throws -> Void
    ) throws {
        if contents.manifest.formatVersion >= HistoryManifest.formatVersion {
            return try writeSegmentedContents(contents, to: zip, carry: carry)
        }
        var manifest = contents.manifest
        try zip.addEntry(name: BundleEntry.document, data: contents.document)
        for digest in Set(manifest.objects.keys).union(contents.newObjects.keys).sorted() {
            if let pending = contents.newObjects[digest] {
                manifest.objects[digest] = try writeObject(
                    digest, pending, size: contents.sizes[digest] ?? 0,
                    compression: contents.compression,
                    compressing: contents.compressing[digest], to: zip)
            } else if let base = contents.base {
                let stored = try base.storedObject(digest)
                switch stored.location {
                case .entry(let entry):
                    try carry(entry, base)
                case .item(let program) where stored.record.codec == .delta:
                    // A delta item of a format-3 history: format 2 stores the same program
                    // compressed, against the same base (readers follow either direction).
                    let compressed = try ZstdCodec.compress(program)
                    try zip.addEntry(name: digest.entryName, data: compressed)
                    manifest.objects[digest] = ObjectRecord(
                        size: stored.record.size, codec: .delta,
                        storedSize: UInt64(compressed.count), base: stored.record.base)
                case .item:
                    // Checked against its digest before it is stored as an entry of its own.
                    let data = try base.validateObject(digest, base: nil)
                    manifest.objects[digest] = try writeObject(
                        digest, .data(data), size: UInt64(data.count), compression: contents.compression,
                        compressing: nil, to: zip)
                }
            }
        }
        try zip.addEntry(
            name: BundleEntry.manifest, data: try CanonicalJSONEncoder().encode(manifest, terminated: true))
        // The bundle's state lies outside the history (FORMAT.md §3.1): no save, prune,
        // restore or migration changes it, and it stays the last entry.
        if let base = contents.base, let state = base.zip.entry(named: BundleEntry.state) {
            try carry(state, base)
        }
    }

    /// Writes one new object: with `.zstd`, compressed when that saves at least a tenth;
    /// with `.none`, as it is.
    static func writeObject(
        _ digest: ObjectDigest, _ pending: TreePlanner.PendingObject, size: UInt64,
        compression: ObjectCompression, compressing: BackgroundWork<Data>?,
        to zip: StoredZipWriter
    ) throws -> ObjectRecord {
        if case .encoded(let stored, let record) = pending {
            try zip.addEntry(name: digest.entryName, data: stored)
            return record
        }
        if case .copied(let source) = pending {
            let stored = try source.storedObject(digest)
            guard let entry = stored.entry else {
                let data = try source.objectData(digest)
                try zip.addEntry(name: digest.entryName, data: data)
                return ObjectRecord(size: UInt64(data.count), codec: .identity, storedSize: UInt64(data.count))
            }
            try zip.copyEntry(entry, from: source.zip)
            return stored.record
        }
        let inMemory = if case .data = pending { true } else { false }
        if compression == .zstd, size >= compressionFloor,
            size <= (inMemory ? inMemoryCompressionLimit : compressionLimit)
        {
            let data: Data
            switch pending {
            case .data(let bytes):
                // Hashed by the planner a moment ago, and bytes in memory cannot change.
                data = bytes
            case .file(let file):
                data = try file.regularFileContents()
                guard ObjectDigest.of(data) == digest else { throw changedFile(digest) }
            case .encoded, .copied:
                preconditionFailure("encoded and copied objects are written above")
            }
            let (stored, record) = try storedForm(of: data, compressed: compressing?.result())
            try zip.addEntry(name: digest.entryName, data: stored)
            // Progress counts the object's own bytes, which the writing phase expects.
            ProgressMeter.advance(.written, by: Int(clamping: size) - stored.count)
            return record
        }
        var hasher = ObjectHasher()
        do {
            try writeStream(pending, as: digest, size: size, hasher: &hasher, to: zip)
        } catch let error as ArchiveError where error.kind == .limitExceeded || error.kind == .truncated {
            // More or fewer bytes than the file had when it was attached.
            throw changedFile(digest)
        }
        guard hasher.finalize() == digest else { throw changedFile(digest) }
        return ObjectRecord(size: size, codec: .identity, storedSize: size)
    }

    /// How an entry stores `data`, an object in memory within the compression limits:
    /// zstd-compressed (`compressed`, when the caller compressed it already) when that saves
    /// a tenth, else as it is.
    static func storedForm(of data: Data, compressed: Data? = nil) throws -> (stored: Data, record: ObjectRecord) {
        let size = UInt64(data.count)
        let compressed = try compressed ?? ZstdCodec.compress(data, level: compressionLevel(forSize: size))
        if UInt64(compressed.count) * 10 < size * 9 {
            return (compressed, ObjectRecord(size: size, codec: .zstd, storedSize: UInt64(compressed.count)))
        }
        return (data, ObjectRecord(size: size, codec: .identity, storedSize: size))
    }

    private static func writeStream(
        _ pending: TreePlanner.PendingObject, as digest: ObjectDigest, size: UInt64,
        hasher: inout ObjectHasher, to zip: StoredZipWriter
    ) throws {
        try zip.addEntry(name: digest.entryName, size: size) { sink in
            switch pending {
            case .data(let data):
                hasher.update(data)
                try data.withUnsafeBytes { try sink.write($0) }
            case .file(let file):
                try file.streamContents { block in
                    hasher.update(block)
                    try sink.write(block)
                }
            case .encoded, .copied:
                preconditionFailure("encoded and copied objects are written whole")
            }
        }
    }

    static func changedFile(_ digest: ObjectDigest) -> DocumentKitError {
        DocumentKitError(
            .invalidDocument,
            """
            a file changed after it was attached or while it was being saved (object \(digest.short)); nothing was \
            saved
            """
        )
    }
}
