import Foundation

/// A bundle's history rebuilt from versions kept outside a bundle (an OCFL object, FORMAT.md
/// §10; a bag of every version, §7): each version's record as the bundle held it, and its
/// files. Every version's tree must be the one its record names, so the new bundle's version
/// ids, parents, authors, dates, messages, signatures, documents and blobs are the exported
/// bundle's, and a copy made this way exchanges with the original.
struct ExportedHistory {
    /// One exported version: its record, where a message names it (`v3`, a bag's folder),
    /// and each of its files by logical path, with the key of its bytes (equal keys are
    /// the same bytes, read once).
    struct Version {
        var record: OCFLVersionRecord
        var location: String
        var files: [(path: String, key: String)]
    }

    /// The bundle's contents: `versions` oldest first, each file made by `file(key, path, location)`
    /// the first time its key is seen. Errors of the trees are `located` at `reported`.
    ///
    /// `rootID` is the project's first version when the versions may not hold it (an
    /// object's id names it): listed first in `pruned` when they do not, so that the new
    /// bundle's object id (``OCFLDeposit/objectID(of:)``) is the object's. With `base`,
    /// the contents leave out the objects `base` holds (a pull's copy of only what is new).
    static func contents(
        _ archived: [Version], reported: String, rootID: VersionID? = nil, base: DocumentBundle? = nil,
        file: (_ key: String, _ path: String, _ location: String) throws -> FileWrapper
    ) throws -> (contents: BundleWriter.Contents, pruned: Int) {
        guard let last = archived.last else {
            throw DocumentKitError(.malformedInput, "it holds no versions", path: reported)
        }
        let planner = TreePlanner(base: base)
        var versions: [BundleVersion] = []
        var seen = Set<VersionID>()
        var pruned: [VersionID] = []
        var headDocument = Data()
        var files: [String: FileWrapper] = [:]
        for (index, archivedVersion) in archived.enumerated() {
            let (record, name) = (archivedVersion.record.version, archivedVersion.location)
            let root = FileWrapper(directoryWithFileWrappers: [:])
            for (logicalPath, key) in archivedVersion.files {
                guard OCFLObject.isSafe(logicalPath) else {
                    throw DocumentKitError(
                        .malformedInput, "the logical path '\(logicalPath)' is not a safe relative path", location: name
                    )
                }
                let node = try files[key] ?? file(key, logicalPath, name)
                files[key] = node
                insert(node, at: logicalPath.split(separator: "/").map(String.init), into: root)
            }
            // Hashing the files read counts nothing: progress counts what was fetched.
            let tree = try DocumentKitError.located(at: reported) {
                try ProgressMeter.bind(nil) { try planner.storeTree(root) }
            }
            guard tree == record.tree else {
                throw DocumentKitError(
                    .malformedInput,
                    """
                    its files are not the tree its record names (\(record.tree.short)…): they were changed after \
                    they were archived
                    """,
                    location: name)
            }
            guard seen.insert(record.id).inserted else {
                throw DocumentKitError(
                    .malformedInput, "it holds bundle version \(record.shortID) a second time", location: name)
            }
            for parent in record.parents where !seen.contains(parent) {
                guard !archived.dropFirst(index).contains(where: { $0.record.version.id == parent }) else {
                    throw DocumentKitError(
                        .malformedInput, "its parent \(String(parent.prefix(12))) comes after it", location: name)
                }
                if !pruned.contains(parent) { pruned.append(parent) }
            }
            if index == archived.count - 1 {
                headDocument = try root[VersionLayout.documentName]?.regularFileContents() ?? Data()
            }
            versions.append(record)
        }
        let prunedParents = pruned.count
        if let rootID, !seen.contains(rootID), !pruned.contains(rootID) {
            pruned.insert(rootID, at: 0)
        }
        BundleManifest.number(&versions, after: pruned.count)
        var manifest = BundleManifest(
            contentType: last.record.contentType, head: last.record.version.id, versions: versions, objects: [:],
            pruned: pruned)
        // A clone is written in the layout saves write.
        manifest.formatVersion = BundleManifest.currentFormatVersion
        let contents = BundleWriter.Contents(
            mimeType: last.record.mimeType, document: headDocument, manifest: manifest,
            newObjects: planner.pending, sizes: planner.sizes, compression: .zstd)
        return (contents, prunedParents)
    }

    private static func insert(_ file: FileWrapper, at components: [String], into folder: FileWrapper) {
        guard components.count > 1 else { return folder.setFileWrapper(file, named: components[0]) }
        let child = folder.fileWrappers?[components[0]] ?? FileWrapper(directoryWithFileWrappers: [:])
        insert(file, at: Array(components.dropFirst()), into: child)
        folder.setFileWrapper(child, named: components[0])
    }
}
