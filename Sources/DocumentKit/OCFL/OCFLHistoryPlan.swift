import Foundation

/// The next OCFL version of a push in the history layout (FORMAT.md §10): one OCFL version
/// whatever the number of bundle versions pushed, whose files are the project's history
/// as a format-3 bundle lays it out, and of which only the files the object lacks are new.
///
/// The first push of a project, and the first push onto an object of the old layout,
/// take the bundle's own history: its `manifest.json`, segments and objects stored alone,
/// byte for byte. Every later push adds one segment holding the versions the object
/// lacks (merged with the object's newest segments as a save merges, FORMAT.md §12.4),
/// the objects stored alone those versions bring, and a new `manifest.json`; the other
/// files are the object's already, named again in the new version's state.
enum OCFLHistoryPlan {
    /// A planned push: the bundle versions it adds, oldest first, and its OCFL version.
    struct Planned {
        var versionIDs: [VersionID]
        var plan: OCFLVersionPlan
        /// The bundle versions the object's history holds once the push is in.
        var versionsHeld: Int
    }

    /// The bundle's whole history as the version after those of `inventory`, with
    /// `accessCopy` (files under `access/`) beside it when one was asked for.
    static func wholeHistory(
        of bundle: DocumentBundle, after inventory: OCFLInventory, adding versionIDs: [VersionID],
        accessCopy: () throws -> [(path: String, file: FileWrapper)], contentFolder: String,
        digests: inout OCFLDigestIndex
    ) throws -> Planned {
        guard let history = bundle.history else { preconditionFailure("a push lays out a format-3 history") }
        let location = bundle.url.relativePath
        var files: [(path: String, file: FileWrapper)] = [
            (OCFLLayout.mimetypePath, FileWrapper(regularFileWithContents: Data(bundle.mimeType.utf8)))
        ]
        let names =
            try DocumentKitError.located(at: location) { try history.aloneObjectEntryNames() }
            + history.manifest.history
            + [BundleEntry.manifest]
        for name in names {
            guard let entry = bundle.zip.entry(named: name) else {
                throw DocumentKitError(
                    .malformedInput, "its history names the entry '\(name)', which the bundle lacks", path: location)
            }
            files.append((name, FileWrapper(entry: entry, in: bundle.zip)))
        }
        let plan = try OCFLVersionPlan.next(
            after: inventory, files: files + accessCopy(), describing: bundle.headVersion, contentFolder: contentFolder,
            location: location, digests: &digests)
        return Planned(versionIDs: versionIDs, plan: plan, versionsHeld: history.manifest.versions)
    }

    /// The versions of `bundle` that the object `object` (history layout, its head's
    /// history in `remote`) lacks, as its next version; `nil` when it lacks none.
    ///
    /// Refused: an object whose head the bundle neither holds nor pruned (`conflict`:
    /// pull first), and a version whose parent the bundle pruned and the object lacks
    /// (`malformedInput`).
    ///
    /// The version names again every file of the object's head but its access copy: a
    /// version holds one only when asked (`accessCopy`, files under `access/`), so that no
    /// version shows a site of a head older than its own.
    static func increment(
        of bundle: DocumentBundle, onto remote: OCFLHistoryReader, size: (String) throws -> UInt64?,
        accessCopy: () throws -> [(path: String, file: FileWrapper)], contentFolder: String,
        digests: inout OCFLDigestIndex
    ) throws -> Planned? {
        guard let history = bundle.history else { preconditionFailure("a push lays out a format-3 history") }
        let location = bundle.url.relativePath
        let remoteHead = remote.manifest.head
        guard remoteHead != bundle.headVersion.id else { return nil }
        let batch = try DocumentKitError.located(at: location) {
            try PushBatch.walk(bundle, history: history, remoteHead: remoteHead)
        }
        let segment = try DocumentKitError.located(at: location) { try SegmentContent(batch, of: bundle) }

        // Merged with the object's newest segments as a save merges its own: the policy
        // needs the new segment's size, so it is built here once more than it is written.
        let object = remote.object
        let headFiles = object.inventory.headFiles
        let remoteSegments = remote.manifest.history
        var builder = HistorySegment.Builder(firstPlace: UInt64(remote.manifest.pruned + remote.manifest.versions + 1))
        for item in segment.items { try builder.append(item) }
        var sizes: [UInt64] = []
        let mergeCount = try HistoryPolicy.segmentsToMerge(
            newest: UInt64(try builder.finish().count), olderCount: remoteSegments.count
        ) { index in
            let name = remoteSegments[remoteSegments.count - 1 - index]
            guard let digest = headFiles[name], let contentPath = object.inventory.manifest[digest]?.first,
                let bytes = try size(OCFLObject.join(object.path, contentPath))
            else {
                throw DocumentKitError(
                    .missingInput, "\(name) is named by the inventory and missing", location: object.inventory.head)
            }
            sizes.append(bytes)
            return bytes
        }
        let merged = max(mergeCount - 1, 0)
        while remote.segments.count < merged { try remote.fetchOlderSegment() }
        let append = try HistoryAppend(
            segment.items, versionCount: batch.versions.count, head: bundle.headVersion.id, to: remote.manifest,
            segments: zip(remote.segments.prefix(merged), sizes).reversed().map {
                HistoryAppend.Segment(name: $0.0.name, size: $0.1, reader: $0.0.reader)
            },
            identify: BundleVersion.id(ofSegmentRecord:))
        var kept = headFiles.filter { !OCFLLayout.isAccessCopy($0.key) }
        for name in append.merged + [BundleEntry.manifest] { kept[name] = nil }
        var files: [(path: String, file: FileWrapper)] = [
            (append.written.name, FileWrapper(regularFileWithContents: append.written.data)),
            (BundleEntry.manifest, FileWrapper(regularFileWithContents: try append.manifest.encoded()))
        ]
        for (name, file) in segment.aloneEntries.sorted(by: { $0.key < $1.key }) where kept[name] == nil {
            files.append((name, file))
        }
        let plan = try OCFLVersionPlan.next(
            after: object.inventory, files: files + accessCopy(), kept: kept, describing: bundle.headVersion,
            contentFolder: contentFolder, location: location, digests: &digests)
        return Planned(versionIDs: batch.versions.map(\.id), plan: plan, versionsHeld: append.manifest.versions)
    }

    /// A version holding the object's history as its head does, and `accessCopy`, for an
    /// archive asked for an access copy of a head the object holds already: `nil` when its
    /// head version holds one (made with it, so of the same head).
    static func accessCopy(
        _ accessCopy: () throws -> [(path: String, file: FileWrapper)], of bundle: DocumentBundle,
        onto remote: OCFLHistoryReader, contentFolder: String, digests: inout OCFLDigestIndex
    ) throws -> Planned? {
        let headFiles = remote.object.inventory.headFiles
        guard remote.manifest.head == bundle.headVersion.id, !headFiles.keys.contains(where: OCFLLayout.isAccessCopy)
        else { return nil }
        let accessCopy = try accessCopy()
        guard !accessCopy.isEmpty else { return nil }
        var described = bundle.headVersion
        described.message = "Access copy of version \(bundle.headVersion.number) (\(bundle.headVersion.shortID))"
        let plan = try OCFLVersionPlan.next(
            after: remote.object.inventory, files: accessCopy, kept: headFiles, describing: described,
            contentFolder: contentFolder, location: bundle.url.relativePath, digests: &digests)
        return Planned(versionIDs: [], plan: plan, versionsHeld: remote.manifest.versions)
    }
}
