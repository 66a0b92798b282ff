import Foundation

/// Deposits a bundle's whole history into an OCFL 1.1 storage root in a folder (FORMAT.md
/// §10; `docctl archive`): one object per project, one OCFL version per deposit, holding
/// the bundle's history as its entries hold it, each file stored once. ("Archive" in the
/// library means zip and tar, the containers DocumentKitArchive reads and writes; the
/// command keeps the word its users know.)
///
/// A deposit is a push to a folder root (``RemotePusher``, FORMAT.md §11): one writer,
/// one crash story. The root appears whole, in one rename; each archive's new versions
/// are built outside the object and the object is replaced by its new self in one
/// exchange, so the root is valid OCFL at every instant, and an archive killed at any
/// moment is completed by the next. Archiving again adds only the versions the object
/// lacks, and never changes a version folder's content once written; versions pruned from
/// the bundle stay in the object's earlier versions. A root may hold several projects.
public enum OCFLDeposit {
    /// What a deposit did.
    public struct Result: Codable, Sendable, Equatable {
        /// The OCFL object's id.
        public var objectID: String
        /// Its folder, relative to the storage root.
        public var objectPath: String
        /// Whether this archive created the object.
        public var createdObject: Bool
        /// The OCFL version added (`v7`), if any: one an archive.
        public var newVersions: [String]
        /// The bundle versions it adds, by id, oldest first.
        public var newVersionIDs: [VersionID]
        /// The bundle versions the object holds, after the archive.
        public var totalVersions: Int
        /// Files added to the object's content (new bytes; the rest were stored before).
        public var filesStored: Int
        /// Their bytes.
        public var bytesStored: UInt64
        /// The access copy's entry page in the version added (`access/index.html`), when
        /// one was asked for and added; `nil` otherwise.
        public var accessCopy: String?
    }

    /// An access copy to deposit with the history, under `access/` in the OCFL version, so
    /// that someone without DocumentKit can look at the project the object holds:
    /// ``htmlSite(trusted:)`` (`docctl archive --with-html`) is the HTML site of the head.
    public struct AccessCopy: Sendable {
        /// The copy's files, made of the bundle being archived: paths relative to `access/`;
        /// folders (`nil` files) are left out.
        var files: @Sendable (DocumentBundle) throws -> [ExportedFile]
        /// The page a reader opens first, relative to `access/`.
        var entryPage: String
    }

    /// Where archives of earlier releases built their versions; one a killed archive left
    /// is removed by the next.
    static let legacyStagingFolder = "extensions/documentkit-staging"

    /// Deposits the bundle at `bundleURL` into the storage root at `root` (created when
    /// missing or empty). With `dryRun`, the root is only read: the result says what the
    /// archive would add.
    public static func deposit(
        _ bundleURL: URL, to root: URL, dryRun: Bool = false, accessCopy: AccessCopy? = nil
    ) throws -> Result {
        try deposit(bundleURL, into: FolderRemoteStore(root: root), dryRun: dryRun, accessCopy: accessCopy)
    }

    /// Deposits the bundle at `bundleURL` into the storage root `root`, a folder's store
    /// (or one that wraps it): a push that may add a project beside others, and that
    /// refuses a bundle whose history diverged from its object's (`malformedInput`).
    ///
    /// With `accessCopy`, the version added holds the head's HTML site under `access/`
    /// besides the history; when the object holds the head already, a version is added for
    /// the access copy alone, unless its head version has one (FORMAT.md §10, "Access
    /// copies"). Without, a version holds none: an access copy shows the head it came with.
    public static func deposit(
        _ bundleURL: URL, into root: any RemoteStore, dryRun: Bool = false, accessCopy: AccessCopy? = nil
    ) throws -> Result {
        if !dryRun, try root.size(OCFLStorageRoot.declaration) != nil {
            try root.removeFolder(legacyStagingFolder)
        }
        let pushed = try RemotePusher.push(
            bundleURL, to: root, newProject: true, dryRun: dryRun, archiving: true, jobs: TransferQueue.defaultJobs
        ) { bundle in
            try (accessCopy?.files(bundle) ?? []).compactMap { file in
                file.node.map { ("\(OCFLLayout.accessFolder)/\(file.path)", $0) }
            }
        }
        let added = accessCopy != nil && !pushed.newVersions.isEmpty
        return Result(
            objectID: pushed.objectID, objectPath: pushed.objectPath,
            createdObject: pushed.result == .created || pushed.result == .wouldCreate,
            newVersions: pushed.newVersions, newVersionIDs: pushed.newVersionIDs, totalVersions: pushed.totalVersions,
            filesStored: pushed.filesSent, bytesStored: pushed.bytesSent,
            accessCopy: added ? accessCopy.map { "\(OCFLLayout.accessFolder)/\($0.entryPage)" } : nil)
    }

    /// `documentkit:` and the id of the project's first version: the root of its version
    /// graph, or, when that was pruned, the first id the bundle lists as pruned (a prune
    /// lists the first version first, and a clone of an object that lacks it lists the
    /// version the object's id names first). Every copy of a project knows it, whatever it
    /// pruned, so every copy maps to one object (FORMAT.md §10).
    public static func objectID(of manifest: BundleManifest) -> String {
        // A root held comes first: a pull from a pruned copy lists, in `pruned`, parents
        // that copy pruned, though this copy holds the root.
        let first =
            manifest.versions.first { $0.parents.isEmpty }?.id ?? manifest.pruned.first ?? manifest.versions[0].id
        return "documentkit:\(first)"
    }

    /// ``objectID(of:)-(BundleManifest)`` of a bundle, without listing a format-3 history:
    /// its first version held (the root, when it has no parents), else its first pruned id,
    /// read from the segments' first blocks.
    static func objectID(of bundle: DocumentBundle) throws -> String {
        guard let history = bundle.history else { return objectID(of: try bundle.manifest) }
        let first = try DocumentKitError.located(at: bundle.url.relativePath) {
            try history.version(atPlace: history.manifest.pruned + 1).version
        }
        guard !first.parents.isEmpty else { return "documentkit:\(first.id)" }
        let pruned = try DocumentKitError.located(at: bundle.url.relativePath) { try history.prunedIDs(limit: 1) }
        return "documentkit:\(pruned.first ?? first.id)"
    }

    /// The bundle's versions an object holding the versions `archived` lacks, in the
    /// manifest's order, each of whose parents the object holds (or, for a new object, the
    /// bundle pruned). Refuses a bundle whose history is not a continuation of the object's.
    static func versionsToAdd(_ bundle: DocumentBundle, archived: [VersionID], isNewObject: Bool, bundlePath: String)
        throws -> [BundleVersion]
    {
        let inBundle = Set(try bundle.manifest.versions.map(\.id)).union(try bundle.manifest.pruned)
        if let foreign = archived.first(where: { !inBundle.contains($0) }) {
            let name = OCFLInventory.versionName(archived.firstIndex(of: foreign)! + 1)
            throw DocumentKitError(
                .malformedInput,
                """
                its history diverged from the archived object's: the object's \(name) (bundle version \
                \(String(foreign.prefix(12)))) is neither in the bundle nor pruned from it
                """,
                path: bundlePath, remedy: .archiveACopyHoldingIt)
        }
        var known = Set(archived)
        var plan: [BundleVersion] = []
        for version in try bundle.manifest.versions where !known.contains(version.id) {
            for parent in version.parents where !known.contains(parent) {
                guard isNewObject, try bundle.manifest.pruned.contains(parent) else {
                    throw DocumentKitError(
                        .malformedInput,
                        """
                        version \(version.number) (\(version.shortID))'s parent \(String(parent.prefix(12))) is \
                        not in the archived object: it was pruned before it was archived, so the object cannot \
                        hold its successors in order
                        """,
                        path: bundlePath)
                }
            }
            plan.append(version)
            known.insert(version.id)
        }
        return plan
    }
}
