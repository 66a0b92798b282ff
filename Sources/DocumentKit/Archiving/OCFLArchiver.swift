import Foundation

/// Writes a bundle's whole history into an OCFL 1.1 storage root (FORMAT.md §10): one
/// object per project, one OCFL version per bundle version, each file stored once.
///
/// Archiving again adds only the versions the object lacks, and never changes a version
/// folder once written; versions pruned from the bundle stay in the object. Each new
/// version is built in a staging folder inside the root, moved into the object whole, and
/// counts once the object's inventory (written last, atomically, then its sidecar) names it.
public enum OCFLArchiver {
    /// What an archive did.
    public struct Result: Codable, Sendable, Equatable {
        /// The OCFL object's id.
        public var objectID: String
        /// Its folder, relative to the storage root.
        public var objectPath: String
        /// Whether this archive created the object.
        public var createdObject: Bool
        /// The OCFL versions added (`v7`, …), oldest first.
        public var newVersions: [String]
        /// The bundle versions they hold, by id, in the same order.
        public var newVersionIDs: [VersionID]
        /// The object's versions in all, after the archive.
        public var totalVersions: Int
        /// Files added to the object's content (new bytes; the rest were stored before).
        public var filesStored: Int
        /// Their bytes.
        public var bytesStored: UInt64
    }

    /// Archives the bundle at `bundleURL` into the storage root at `root` (created when
    /// missing or empty). With `dryRun`, the root is only read: the result says what the
    /// archive would add.
    public static func archive(_ bundleURL: URL, to root: URL, dryRun: Bool = false) throws -> Result {
        let storage = FolderArchiveStore(root: root)
        return try dryRun ? plannedArchive(bundleURL, to: storage) : archive(bundleURL, to: storage)
    }

    /// What archiving the bundle at `bundleURL` into `storage` would add, found without
    /// writing: the versions the object lacks and the files they bring (hashed to know).
    static func plannedArchive(_ bundleURL: URL, to storage: any ArchiveStore) throws -> Result {
        let bundle = try DocumentBundle(contentsOf: bundleURL)
        let objectID = objectID(of: bundle.manifest)
        _ = try OCFLStorageRoot.open(storage, checkingOnly: true)
        let objectPath = OCFLStorageRoot.objectPath(for: objectID)
        let existing = try storage.exists(objectPath) ? try OCFLObject.read(storage, at: objectPath) : nil
        let plan = try versionsToAdd(bundle, archived: existing?.records.map(\.version.id) ?? [], isNewObject: existing == nil,
                                     bundlePath: bundleURL.relativePath)
        var inventory = existing?.inventory ?? OCFLInventory(id: objectID)
        var digests = OCFLDigestIndex(existing?.inventory)
        var names: [String] = []
        var stored = (files: 0, bytes: UInt64(0))
        for version in plan {
            let next = try OCFLVersionPlan.next(after: inventory, adding: version, of: bundle, contentFolder: nil, digests: &digests)
            (names, inventory) = (names + [next.name], next.inventory)
            stored = (stored.files + next.newContent.count, next.newContent.reduce(stored.bytes) { $0 + $1.size })
        }
        return Result(objectID: objectID, objectPath: objectPath, createdObject: existing == nil && !plan.isEmpty, newVersions: names,
                      newVersionIDs: plan.map(\.id), totalVersions: inventory.versions.count, filesStored: stored.files, bytesStored: stored.bytes)
    }

    /// Archives the bundle at `bundleURL` into the storage root `storage`.
    public static func archive(_ bundleURL: URL, to storage: any ArchiveStore) throws -> Result {
        let bundle = try DocumentBundle(contentsOf: bundleURL)
        let objectID = objectID(of: bundle.manifest)
        let root = try OCFLStorageRoot.open(storage)
        let objectPath = OCFLStorageRoot.objectPath(for: objectID)
        // Nothing but this archiver writes the staging folder: what is there was left by
        // a killed run.
        try storage.remove(OCFLStorageRoot.stagingFolder)
        defer { try? storage.remove(OCFLStorageRoot.stagingFolder) }

        var existing: OCFLObject?
        if try storage.exists(objectPath) {
            try OCFLRecovery.finishInterruptedVersion(storage, objectPath: objectPath)
            existing = try OCFLObject.read(storage, at: objectPath)
            guard existing!.inventory.id == objectID else {
                throw DocumentKitError(.malformedInput, "the object at \(objectPath) has the id \(existing!.inventory.id), not \(objectID)", path: storage.displayPath)
            }
        }
        let plan = try versionsToAdd(bundle, archived: existing?.records.map(\.version.id) ?? [], isNewObject: existing == nil,
                                     bundlePath: bundleURL.relativePath)
        var writer = OCFLVersionWriter(storage: root.storage, objectPath: objectPath,
                                       inventory: existing?.inventory ?? OCFLInventory(id: objectID), isNew: existing == nil)
        // What a version adds is known only as it is planned: the phase counts bytes read.
        try ProgressMeter.phase(.writing, counting: .read, totalBytes: nil) {
            for version in plan {
                try DocumentKitError.located(at: storage.displayPath) {
                    try writer.add(version, of: bundle)
                }
            }
        }
        return Result(objectID: objectID, objectPath: objectPath, createdObject: existing == nil && !plan.isEmpty,
                      newVersions: writer.added, newVersionIDs: plan.map(\.id), totalVersions: writer.inventory.versions.count,
                      filesStored: writer.filesStored, bytesStored: writer.bytesStored)
    }

    /// `documentkit:` and the id of the project's first version: the root of its version
    /// graph, or, when that was pruned, the first id the bundle lists as pruned. Every copy
    /// of a project has it, so every copy maps to one object.
    public static func objectID(of manifest: BundleManifest) -> String {
        let first = manifest.pruned.first ?? manifest.versions.first { $0.parents.isEmpty }?.id ?? manifest.versions[0].id
        return "documentkit:\(first)"
    }

    /// The bundle's versions an object holding the versions `archived` lacks, in the
    /// manifest's order, each of whose parents the object holds (or, for a new object, the
    /// bundle pruned). Refuses a bundle whose history is not a continuation of the object's.
    static func versionsToAdd(_ bundle: DocumentBundle, archived: [VersionID], isNewObject: Bool, bundlePath: String) throws -> [BundleVersion] {
        let inBundle = Set(bundle.manifest.versions.map(\.id)).union(bundle.manifest.pruned)
        if let foreign = archived.first(where: { !inBundle.contains($0) }) {
            let name = OCFLInventory.versionName(archived.firstIndex(of: foreign)! + 1)
            throw DocumentKitError(.malformedInput, "its history diverged from the archived object's: the object's \(name) (bundle version \(String(foreign.prefix(12)))) is neither in the bundle nor pruned from it; archive a copy that holds it (docctl pull) or into another root",
                                   path: bundlePath)
        }
        var known = Set(archived)
        var plan: [BundleVersion] = []
        for version in bundle.manifest.versions where !known.contains(version.id) {
            for parent in version.parents where !known.contains(parent) {
                guard isNewObject, bundle.manifest.pruned.contains(parent) else {
                    throw DocumentKitError(.malformedInput, "version \(version.number) (\(version.shortID))'s parent \(String(parent.prefix(12))) is not in the archived object: it was pruned before it was archived, so the object cannot hold its successors in order",
                                           path: bundlePath)
                }
            }
            plan.append(version)
            known.insert(version.id)
        }
        return plan
    }
}
