import Foundation

/// Sends a bundle's versions to a remote (FORMAT.md §11): an OCFL 1.1 storage root in a
/// folder or a bucket, where the project is one OCFL object and each push one OCFL version
/// holding the bundle's history (FORMAT.md §10), so that a backup is also an archive.
///
/// A push first repairs what an interrupted or overtaken push left (``RemoteObjectSnapshot/repair``),
/// then uploads the files the object lacks (each stored once; those an interrupted push left
/// are not sent again), then moves the object's head with a compare-and-swap against the
/// inventory it read. Of two pushes racing from the same head, one wins; the other takes
/// back what it uploaded and fails with `conflict`, telling its user to pull and push again.
///
/// A folder remote stages the uploads outside the object and replaces the object in one
/// step (``FolderRemoteStore/replaceObject(at:stagedIn:adding:ifTag:)``): it is valid OCFL
/// at every instant. S3 has no such step: the uploads go into the new version's folder, the
/// inventory is replaced, then its sidecar is written; a validator looking in between
/// finds the object incomplete, and the next push repairs what a killed one left.
public enum RemotePusher {
    /// What a push did, as `push --json` spells it.
    public enum Outcome: String, Codable, Sendable, Equatable {
        /// The remote already held the bundle's head; nothing was sent.
        case upToDate = "up-to-date"
        /// The object is new on the remote.
        case created
        /// The object took a new version.
        case pushed
        /// A dry run: what `created` and `pushed` would have been.
        case wouldCreate = "would-create"
        case wouldPush = "would-push"
    }

    /// What a push did.
    public struct Result: Codable, Sendable, Equatable {
        /// What happened to the remote's object.
        public var result: Outcome
        /// The OCFL object's id.
        public var objectID: String
        /// Its folder below the remote's root.
        public var objectPath: String
        /// The OCFL version added (`v7`): one a push, whatever the bundle versions it holds.
        public var newVersions: [String]
        /// The bundle versions it adds, by id, oldest first.
        public var newVersionIDs: [VersionID]
        /// The remote's head after the push: its newest version's bundle id.
        public var head: VersionID
        /// The bundle versions the object holds, after the push.
        public var totalVersions: Int
        /// Files uploaded, and their bytes.
        public var filesSent: Int
        public var bytesSent: UInt64
        /// Files an interrupted push had already uploaded, not sent again.
        public var filesResumed: Int
    }

    /// Pushes the bundle at `bundleURL` to `remote`, creating the storage root when the
    /// remote is empty. With `dryRun`, the remote is only read: the result says what the
    /// push would send (the files the remote lacks, and their bytes), and `result` is
    /// `would-create` or `would-push`.
    ///
    /// A remote that holds other projects but not this one is refused (`usage`), naming
    /// them, unless `newProject`: a clone of it then needs the project's object id.
    ///
    /// `archiving` (``OCFLDeposit``): a remote holding versions the bundle lacks is a
    /// history that diverged (`malformedInput`, naming the first), not a push to pull before.
    ///
    /// Up to `jobs` files are uploaded at once (``TransferQueue``); with 1, one after another.
    public static func push(
        _ bundleURL: URL, to remote: any RemoteStore, newProject: Bool = false, dryRun: Bool = false,
        archiving: Bool = false, jobs: Int = TransferQueue.defaultJobs
    ) throws -> Result {
        try push(
            bundleURL, to: remote, newProject: newProject, dryRun: dryRun, archiving: archiving, jobs: jobs,
            accessCopy: { _ in [] })
    }

    /// ``push(_:to:newProject:dryRun:archiving:jobs:)``, whose version also holds the files
    /// `accessCopy` makes of the bundle (an archive's access copy, under `access/`): with
    /// the versions it adds, or alone in a version of its own when the object holds the
    /// bundle's head already without one.
    static func push(
        _ bundleURL: URL, to remote: any RemoteStore, newProject: Bool, dryRun: Bool, archiving: Bool, jobs: Int,
        accessCopy makeAccessCopy: (DocumentBundle) throws -> [(path: String, file: FileWrapper)]
    ) throws -> Result {
        let bundle = try DocumentBundle(contentsOf: bundleURL)
        // Made only when a version takes it: an archive that finds the object up to date
        // renders no site.
        var madeAccessCopy: [(path: String, file: FileWrapper)]?
        func accessCopy() throws -> [(path: String, file: FileWrapper)] {
            if let madeAccessCopy { return madeAccessCopy }
            let made = try makeAccessCopy(bundle)
            madeAccessCopy = made
            return made
        }
        let bundlePath = bundleURL.relativePath
        try RemoteRoot.prepare(remote, checkingOnly: dryRun)
        let project = try RemoteRoot.projectObject(of: bundle, in: remote)
        let (objectID, objectPath) = (project.id, project.path)
        let state = try RemoteObjectSnapshot.read(remote, objectPath: objectPath, expectedID: objectID)
        if let inventory = state.inventory, !dryRun {
            try RemoteObjectSnapshot.repair(remote, objectPath: objectPath, inventory: inventory, tag: state.tag)
        }
        if state.inventory == nil, !newProject {
            try refuseAnotherProject(in: remote, objectPath: objectPath, bundlePath: bundlePath)
        }
        // A bundle of format 1 or 2 is pushed from a format-3 copy of it: the history
        // layout is a format-3 history.
        let copy = bundle.history == nil ? try StagingFolder(beside: bundleURL) : nil
        let source = try copy.map { try formatThreeCopy(of: bundle, in: $0) } ?? bundle
        defer { withExtendedLifetime(copy) {} }
        var digests = OCFLDigestIndex(state.inventory)
        let contentFolder = contentFolder(of: bundle.headVersion.id)
        let planned: OCFLHistoryPlan.Planned?
        // The bundle versions the object holds, for a push that finds it up to date.
        let held: Int
        if let inventory = state.inventory, inventory.headLayout == .history {
            let object = OCFLObject(storage: remote, path: objectPath, inventory: inventory, records: [])
            let reader = try OCFLHistoryReader(object, scratch: nil)
            held = reader.manifest.versions
            do {
                planned = try ProgressMeter.phase(.hashing, counting: .read, totalBytes: nil) {
                    try OCFLHistoryPlan.increment(
                        of: source, onto: reader, size: { try remote.size($0) }, accessCopy: accessCopy,
                        contentFolder: contentFolder, digests: &digests)
                        ?? OCFLHistoryPlan.accessCopy(
                            accessCopy, of: source, onto: reader, contentFolder: contentFolder, digests: &digests)
                }
            } catch let error as DocumentKitError where error.code == .conflict {
                throw archiving
                    ? DocumentKitError(
                        .malformedInput,
                        """
                        its history diverged from the archived object's: the object's head \(inventory.head) \
                        (bundle version \(reader.manifest.head.prefix(12))) is neither in the bundle nor pruned \
                        from it
                        """,
                        path: bundlePath,
                        remedy: .archiveACopyHoldingIt)
                    : behind(remote, inventory, versions: "versions", bundlePath: bundlePath)
            }
        } else {
            // A new object, or one of the layout of one OCFL version per bundle version: its
            // next version holds the bundle's whole history.
            let remoteIDs = try state.versionIDs(matching: bundle)
            held = remoteIDs.count
            let known = Set(try bundle.manifest.versions.map(\.id)).union(try bundle.manifest.pruned)
            let lacking = remoteIDs.filter { !known.contains($0) }
            if !lacking.isEmpty, !archiving, let inventory = state.inventory {
                throw behind(
                    remote, inventory, versions: lacking.count == 1 ? "a version" : "\(lacking.count) versions",
                    bundlePath: bundlePath)
            }
            let plan = try OCFLDeposit.versionsToAdd(
                bundle, archived: remoteIDs, isNewObject: state.inventory == nil, bundlePath: bundlePath)
            planned =
                plan.isEmpty
                ? nil
                : try ProgressMeter.phase(.hashing, counting: .read, totalBytes: nil) {
                    try OCFLHistoryPlan.wholeHistory(
                        of: source, after: state.inventory ?? OCFLInventory(id: objectID), adding: plan.map(\.id),
                        accessCopy: accessCopy, contentFolder: contentFolder, digests: &digests)
                }
        }
        guard let planned else {
            // A push of these versions killed after its exchange left its staging folder:
            // any push still using it read the old head, and will lose its compare-and-swap.
            if !dryRun,
                let staging = remote.pushStagingFolder(for: stagingKey(objectPath, newest: bundle.headVersion.id))
            {
                try remote.removeFolder(staging)
            }
            return Result(
                result: .upToDate, objectID: objectID, objectPath: objectPath, newVersions: [], newVersionIDs: [],
                head: bundle.headVersion.id, totalVersions: held, filesSent: 0, bytesSent: 0, filesResumed: 0)
        }
        var plans = [planned.plan]
        var inventory = planned.plan.inventory
        let plan = planned.versionIDs

        // A folder stages the new versions outside the object; S3 writes them into it. A
        // version of an access copy alone brings no bundle version: its key names it, so
        // that it never meets what the push that brought its head left.
        let key = stagingKey(objectPath, newest: bundle.headVersion.id)
        let staging = remote.pushStagingFolder(
            for: plan.isEmpty ? "\(key)-\(OCFLLayout.accessFolder)-\(planned.plan.name)" : key)
        let uploadRoot = staging ?? objectPath
        var sent = (files: 0, bytes: UInt64(0), resumed: 0)
        let (uploads, resumed) = try contentToSend(plans, under: uploadRoot, to: remote)
        sent.resumed = resumed
        if dryRun {
            (sent.files, sent.bytes) = (uploads.count, uploads.reduce(0) { $0 + $1.size })
            return Result(
                result: state.inventory == nil ? .wouldCreate : .wouldPush, objectID: objectID, objectPath: objectPath,
                newVersions: plans.map(\.name), newVersionIDs: plan, head: bundle.headVersion.id,
                totalVersions: planned.versionsHeld, filesSent: sent.files, bytesSent: sent.bytes,
                filesResumed: sent.resumed)
        }
        if staging == nil, state.inventory == nil,
            try remote.size(OCFLObject.join(objectPath, OCFLObject.declaration)) == nil
        {
            try remote.write(OCFLObject.join(objectPath, OCFLObject.declaration), Data(OCFLObject.declarationText.utf8))
        }
        // Counted as the bundle's bytes are taken by the remote, on whichever thread sends them.
        let uploaded = Protected((files: 0, bytes: UInt64(0)))
        // OCFL's digest of each file, taken in the read that sends it (``OCFLDigestTap``).
        let learned = Protected([String: String]())
        try ProgressMeter.phase(.writing, counting: .read, totalBytes: uploads.reduce(0) { $0 + $1.size }) {
            try TransferQueue.run(uploads, jobs: jobs) { content in
                let tap = content.sha512 == nil ? OCFLDigestTap(content.file) : nil
                let bytes = try DocumentKitError.located(at: bundlePath) {
                    try remote.upload(
                        "\(uploadRoot)/\(content.contentPath)", from: tap?.file ?? content.file, size: content.size)
                }
                uploaded.mutate { $0 = ($0.files + 1, $0.bytes + bytes) }
                if let sha512 = tap?.sha512 { learned.mutate { $0[content.key] = sha512 } }
            }
        }
        (sent.files, sent.bytes) = uploaded.value
        var sha512BySHA256 = learned.value
        try ProgressMeter.phase(.hashing, counting: .read, totalBytes: nil) {
            try DocumentKitError.located(at: bundlePath) {
                plans = try plans.map { try $0.resolved(&sha512BySHA256, reading: &digests) }
            }
        }
        inventory = plans.last!.inventory

        let committed: Bool
        if let staging {
            committed = try remote.replaceObject(
                at: objectPath, stagedIn: staging, adding: try objectFiles(plans, isNew: state.inventory == nil),
                ifTag: state.tag)
            try remote.removeFolder(staging)
        } else {
            // Every file the new inventory names is on stable storage before it names them.
            try remote.flush()
            committed = try remote.replace("\(objectPath)/inventory.json", with: inventory.encoded(), ifTag: state.tag)
            if committed {
                try RemoteObjectSnapshot.writeSidecar(remote, objectPath: objectPath)
            } else {
                try removeUploads(of: plans, objectPath: objectPath, from: remote)
            }
        }
        guard committed else {
            throw DocumentKitError(
                .conflict,
                """
                \(remote.displayPath) changed while this push ran (another push moved its head first); nothing was \
                pushed
                """,
                path: bundlePath, remedy: .pullFirst(bundle: bundlePath, remote: remote.displayPath))
        }
        return Result(
            result: state.inventory == nil ? .created : .pushed, objectID: objectID, objectPath: objectPath,
            newVersions: plans.map(\.name), newVersionIDs: plan, head: bundle.headVersion.id,
            totalVersions: planned.versionsHeld, filesSent: sent.files, bytesSent: sent.bytes,
            filesResumed: sent.resumed)
    }

    /// The refusal of a push onto a remote that holds versions the bundle lacks.
    private static func behind(
        _ remote: any RemoteStore, _ inventory: OCFLInventory, versions: String, bundlePath: String
    ) -> DocumentKitError {
        let head = inventory.versions[inventory.head]
        let about = [
            (head?.message ?? "").isEmpty ? nil : "\"\(head!.message!)\"", head?.user.map { "by \($0.name)" },
            head?.created
        ].compactMap { $0 }
        return DocumentKitError(
            .conflict,
            """
            \(remote.displayPath) has \(versions) this bundle lacks, up to its \(inventory.head) \
            (\(about.joined(separator: ", ")))
            """,
            path: bundlePath, remedy: .pullFirst(bundle: bundlePath, remote: remote.displayPath))
    }

    /// A format-3 copy of `bundle` (of format 1 or 2) in `folder`, to push from.
    private static func formatThreeCopy(of bundle: DocumentBundle, in folder: StagingFolder) throws -> DocumentBundle {
        let url = folder.url.appendingPathComponent(
            "push" + (bundle.url.pathExtension.isEmpty ? "" : ".\(bundle.url.pathExtension)"))
        var manifest = try bundle.manifest
        manifest.formatVersion = HistoryManifest.formatVersion
        try BundleWriter.writeContents(
            BundleWriter.Contents(
                mimeType: bundle.mimeType, document: try bundle.documentData(of: bundle.headVersion),
                manifest: manifest, base: bundle),
            to: url, replace: false)
        return try DocumentBundle(contentsOf: url)
    }

    /// Refuses to add a project to a remote that holds others, naming them: a second
    /// project makes every clone name one.
    private static func refuseAnotherProject(in remote: any RemoteStore, objectPath: String, bundlePath: String) throws
    {
        let others = RemoteRoot.describeProjects(
            remote, at: try RemoteRoot.objectPaths(remote).filter { $0 != objectPath })
        guard !others.isEmpty else { return }
        let (which, beside) = others.count == 1 ? ("another project", "it") : ("\(others.count) other projects", "them")
        throw DocumentKitError(
            .usage, "holds \(which), not \(bundlePath)'s: \(others.joined(separator: "; "))", path: remote.displayPath,
            remedy: .pushAsNewProject(beside: beside))
    }

    /// The files a folder's new object gains besides its content: the object's inventory
    /// and sidecar, and for a new object its declaration. A version of the history layout
    /// keeps no copy of the inventory of its own (FORMAT.md §10).
    private static func objectFiles(_ plans: [OCFLVersionPlan], isNew: Bool) throws -> [(path: String, data: Data)] {
        let files: [(path: String, data: Data)] =
            isNew ? [(OCFLObject.declaration, Data(OCFLObject.declarationText.utf8))] : []
        let data = try plans.last!.inventory.encoded()
        return files + [("inventory.json", data), ("inventory.json.sha512", OCFLInventory.sidecar(for: data))]
    }

    /// The new files of `plans` the remote lacks, and how many it has already. A file
    /// appears whole or not at all, under a name only this version's push writes: one
    /// there of the right size is one an interrupted push sent.
    private static func contentToSend(
        _ plans: [OCFLVersionPlan], under folder: String,
        to remote: any RemoteStore
    ) throws -> ([OCFLVersionPlan.NewContent], resumed: Int) {
        var uploads: [OCFLVersionPlan.NewContent] = []
        var resumed = 0
        for versionPlan in plans {
            let present = try remote.list(prefix: "\(folder)/\(versionPlan.name)/content/")
            for content in versionPlan.newContent {
                if present["\(folder)/\(content.contentPath)"] == content.size {
                    resumed += 1
                } else {
                    uploads.append(content)
                }
            }
        }
        return (uploads, resumed)
    }

    /// The staging folder's key of a push whose newest version is `newest`: the same for
    /// the push run again, another for a push of other versions.
    static func stagingKey(_ objectPath: String, newest: VersionID) -> String {
        "\(objectPath.split(separator: "/").last!.prefix(16))-\(contentFolder(of: newest))"
    }

    /// The folder below `vN/content/` a version's new files go to: the first 16 hex digits
    /// of its id, so that two pushes racing for `vN` with different versions never write
    /// the same key, and a push resumed writes the same keys again.
    static func contentFolder(of id: VersionID) -> String {
        String(id.prefix(16))
    }

    /// Removes what a push that lost the race uploaded, but for files the winner's
    /// inventory names (it pushed the same version, from another copy).
    private static func removeUploads(of plans: [OCFLVersionPlan], objectPath: String, from remote: any RemoteStore)
        throws
    {
        // A failure to read the winner's inventory is thrown, not taken for "none": then
        // every upload would go, the winner's same files among them.
        let winner = try remote.read("\(objectPath)/inventory.json").flatMap {
            try? JSONDecoder().decode(OCFLInventory.self, from: $0.data)
        }
        let kept = Set(winner.map { Array($0.manifest.values.joined()) } ?? [])
        for plan in plans {
            for content in plan.newContent where !kept.contains(content.contentPath) {
                try remote.delete("\(objectPath)/\(content.contentPath)")
            }
        }
    }
}
