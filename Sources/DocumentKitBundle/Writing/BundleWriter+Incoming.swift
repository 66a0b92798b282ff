import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension BundleWriter {
    /// What a pull brings in from another copy of a bundle (FORMAT.md §5.3): versions the
    /// base lacks, in the other copy's order, with their records and ids as they are, and
    /// the objects they need, whose stored bytes are copied as they are.
    package struct Incoming {
        /// The other copy.
        package var source: DocumentBundle
        /// Its versions the base lacks, each after its parents.
        package var versions: [BundleVersion]
        /// The objects to copy from it: what those versions' trees use and the base lacks,
        /// with the delta bases they need.
        package var objects: [ObjectDigest]
        /// Parents of those versions that neither copy holds (the other copy pruned them).
        package var pruned: [VersionID]
        /// The other copy's head document, checked against its digest, when the caller
        /// decoded it already (a pull's check of what it brings in).
        package var headDocument: HeldObject?

        package init(source: DocumentBundle, versions: [BundleVersion], objects: [ObjectDigest], pruned: [VersionID]) {
            self.source = source
            self.versions = versions
            self.objects = objects
            self.pruned = pruned
        }

        /// A history (versions, pruned ids, objects) with these versions and objects added,
        /// the versions numbered by their new places.
        package func added(to history: ([BundleVersion], [VersionID], [ObjectDigest: ObjectRecord])) throws
            -> ([BundleVersion], [VersionID], [ObjectDigest: ObjectRecord])
        {
            var (versions, pruned, objects) = history
            versions += self.versions
            pruned += self.pruned
            let sourceObjects = try source.manifest.objects
            for digest in self.objects { objects[digest] = sourceObjects[digest] }
            BundleManifest.number(&versions, after: pruned.count)
            return (versions, pruned, objects)
        }

        /// The document of the other copy's head: as the caller checked it, else read from
        /// its `document.json` and checked.
        package func headDocumentData() throws -> Data {
            let head = source.headVersion
            if let headDocument, headDocument.digest == (try source.documentDigest(of: head)) {
                return headDocument.data
            }
            return try source.documentData(of: head)
        }

        /// The objects to write, each copied from the other copy.
        package func copies() -> [ObjectDigest: TreePlanner.PendingObject] {
            Dictionary(uniqueKeysWithValues: objects.map { ($0, .copied(source)) })
        }
    }

    /// Moves `base` forward to the other copy's head (a fast-forward): its versions and
    /// objects are added, and its head's document becomes `document.json`. No version is
    /// made. Appends in place when `inPlace` allows it.
    package static func fastForward(
        _ base: DocumentBundle, with incoming: Incoming, compression: ObjectCompression,
        destination: URL, inPlace: Bool
    ) throws {
        if appendsIncoming(incoming, to: base) {
            return try fastForwardHistory(
                base, with: incoming, compression: compression, destination: destination, inPlace: inPlace)
        }
        let listed = try base.manifest
        let (versions, pruned, objects) = try incoming.added(to: (listed.versions, listed.pruned, listed.objects))
        let head = incoming.source.headVersion
        var manifest = BundleManifest(
            contentType: base.contentTypeIdentifier, head: head.id, versions: versions,
            objects: objects, pruned: pruned)
        manifest.formatVersion = base.formatVersion
        var newObjects = incoming.copies()
        let sourceObjects = try incoming.source.manifest.objects
        var sizes = Dictionary(uniqueKeysWithValues: incoming.objects.map { ($0, sourceObjects[$0]?.storedSize ?? 0) })
        // The head's document is stored whole (FORMAT.md §4): a copy the base held as a
        // delta (an old document of its own) is stored again.
        let document = try incoming.headDocumentData()
        let digest = ObjectDigest.of(document)
        if newObjects[digest] == nil, listed.objects[digest]?.codec == .delta {
            newObjects[digest] = .data(document)
            sizes[digest] = UInt64(document.count)
        }
        try writeContents(
            Contents(
                mimeType: base.mimeType, document: document, manifest: manifest, newObjects: newObjects,
                sizes: sizes, base: base, compression: compression),
            to: destination, replace: true, inPlace: inPlace)
    }

    /// A fast-forward of a format-3 history: the other copy's versions and objects are
    /// appended as one segment, as a save appends its own, and its head's document
    /// becomes `document.json`.
    private static func fastForwardHistory(
        _ base: DocumentBundle, with incoming: Incoming, compression: ObjectCompression,
        destination: URL, inPlace: Bool
    ) throws {
        let head = incoming.source.headVersion
        var metadata = SaveMetadata(author: head.author, compression: compression)
        metadata.formatVersion = HistoryManifest.formatVersion
        // Nothing of the request's tree is written: the save makes no version of its own.
        var request = Request(
            root: FileWrapper(directoryWithFileWrappers: [:]), contentType: base.contentTypeIdentifier,
            mimeType: base.mimeType, schema: head.schema, metadata: metadata, base: base,
            destination: destination, replace: true)
        request.inPlace = inPlace
        request.incoming = incoming
        let save = HistorySave(
            request: request, version: nil, head: head.id, document: try incoming.headDocumentData(),
            incoming: try incomingHistory(incoming), incomingVersions: incoming.versions.count,
            chainOrigin: base.history!.manifest.chainOrigin)
        try writeHistory(save)
    }
}
