import Foundation

/// Sends a bundle's versions to a remote (FORMAT.md §11): an OCFL 1.1 storage root in a
/// folder or a bucket, where the project is one OCFL object and each bundle version one
/// OCFL version, so that a backup is also an archive.
///
/// A push uploads the files the object lacks (each stored once; those an interrupted push
/// left are not sent again), then moves the object's head by replacing its inventory with a
/// compare-and-swap against the inventory it read. Of two pushes racing from the same
/// head, one wins; the other deletes what it uploaded and fails with `conflict`, telling
/// its user to pull and push again. Only then are the new versions' own inventories and the
/// sidecars written: a reader, or the next push, finishes a push killed in between.
public enum RemotePusher {
    /// What a push did.
    public struct Result: Codable, Sendable, Equatable {
        /// `up-to-date`, `created` (the object is new) or `pushed`; for a dry run,
        /// `would-create` or `would-push`.
        public var result: String
        /// The OCFL object's id.
        public var objectID: String
        /// Its folder below the remote's root.
        public var objectPath: String
        /// The OCFL versions added (`v7`, …), oldest first.
        public var newVersions: [String]
        /// The bundle versions they hold, by id, in the same order.
        public var newVersionIDs: [VersionID]
        /// The remote's head after the push: its newest version's bundle id.
        public var head: VersionID
        /// The object's versions in all, after the push.
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
    public static func push(_ bundleURL: URL, to remote: any RemoteStore, dryRun: Bool = false) throws -> Result {
        let bundle = try DocumentBundle(contentsOf: bundleURL)
        let bundlePath = bundleURL.relativePath
        try RemoteRoot.prepare(remote, checkingOnly: dryRun)
        let objectID = OCFLArchiver.objectID(of: bundle.manifest)
        let objectPath = OCFLStorageRoot.objectPath(for: objectID)
        var state = try RemoteObjectSnapshot.read(remote, objectPath: objectPath, expectedID: objectID)
        if let inventory = state.inventory, !dryRun {
            try RemoteObjectSnapshot.finishInterruptedPush(remote, objectPath: objectPath, inventory: inventory)
        }
        let remoteIDs = try state.versionIDs(matching: bundle)
        let known = Set(bundle.manifest.versions.map(\.id)).union(bundle.manifest.pruned)
        if let index = remoteIDs.firstIndex(where: { !known.contains($0) }) {
            throw DocumentKitError(.conflict, "\(remote.displayPath) has versions this bundle lacks (its \(OCFLInventory.versionName(index + 1)) is bundle version \(String(remoteIDs[index].prefix(12)))): pull them first (pull BUNDLE REMOTE), then push again",
                                   path: bundlePath)
        }
        let plan = try OCFLArchiver.versionsToAdd(bundle, archived: remoteIDs, isNewObject: state.inventory == nil, bundlePath: bundlePath)
        guard !plan.isEmpty else {
            return Result(result: "up-to-date", objectID: objectID, objectPath: objectPath, newVersions: [], newVersionIDs: [],
                          head: remoteIDs.last ?? bundle.manifest.head, totalVersions: remoteIDs.count, filesSent: 0, bytesSent: 0, filesResumed: 0)
        }

        var inventory = state.inventory ?? OCFLInventory(id: objectID)
        var digests = OCFLDigestIndex(state.inventory)
        var plans: [OCFLVersionPlan] = []
        try ProgressMeter.phase(.hashing, counting: .read, totalBytes: nil) {
            for version in plan {
                let next = try OCFLVersionPlan.next(after: inventory, adding: version, of: bundle, contentFolder: contentFolder(of: version.id), digests: &digests)
                plans.append(next)
                inventory = next.inventory
            }
        }

        var sent = (files: 0, bytes: UInt64(0), resumed: 0)
        let (uploads, resumed) = try contentToSend(plans, objectPath: objectPath, to: remote)
        sent.resumed = resumed
        if dryRun {
            (sent.files, sent.bytes) = (uploads.count, uploads.reduce(0) { $0 + $1.size })
            return Result(result: remoteIDs.isEmpty ? "would-create" : "would-push", objectID: objectID, objectPath: objectPath,
                          newVersions: plans.map(\.name), newVersionIDs: plan.map(\.id), head: plan.last!.id,
                          totalVersions: inventory.versions.count, filesSent: sent.files, bytesSent: sent.bytes, filesResumed: sent.resumed)
        }
        if state.inventory == nil, try remote.size(OCFLObject.join(objectPath, OCFLObject.declaration)) == nil {
            try remote.write(OCFLObject.join(objectPath, OCFLObject.declaration), Data(OCFLObject.declarationText.utf8))
        }
        // Counted as the bundle's bytes are read for sending, which the S3 client does on
        // this thread too (its requests run elsewhere).
        try ProgressMeter.phase(.writing, counting: .read, totalBytes: uploads.reduce(0) { $0 + $1.size }) {
            for content in uploads {
                sent.bytes += try DocumentKitError.located(at: bundlePath) {
                    try remote.upload("\(objectPath)/\(content.contentPath)", from: content.file, size: content.size)
                }
                sent.files += 1
            }
        }

        let inventoryData = try inventory.encoded()
        // Every file the new inventory names is on stable storage before it names them.
        try remote.flush()
        guard try remote.replace("\(objectPath)/inventory.json", with: inventoryData, ifTag: state.tag) else {
            try removeUploads(of: plans, objectPath: objectPath, from: remote)
            throw DocumentKitError(.conflict, "\(remote.displayPath) changed while this push ran (another push moved its head first); nothing was pushed: pull (pull BUNDLE REMOTE), then push again",
                                   path: bundlePath)
        }
        state.inventory = inventory
        try RemoteObjectSnapshot.finishInterruptedPush(remote, objectPath: objectPath, inventory: inventory)
        try RemoteObjectSnapshot.sweep(plans.map(\.name), of: inventory, objectPath: objectPath, in: remote)
        return Result(result: remoteIDs.isEmpty ? "created" : "pushed", objectID: objectID, objectPath: objectPath,
                      newVersions: plans.map(\.name), newVersionIDs: plan.map(\.id), head: plan.last!.id,
                      totalVersions: inventory.versions.count, filesSent: sent.files, bytesSent: sent.bytes, filesResumed: sent.resumed)
    }

    /// The new files of `plans` the remote lacks, and how many it has already. A file
    /// appears whole or not at all, under a name only this version's push writes: one
    /// there of the right size is one an interrupted push sent.
    private static func contentToSend(_ plans: [OCFLVersionPlan], objectPath: String,
                                      to remote: any RemoteStore) throws -> ([OCFLVersionPlan.NewContent], resumed: Int) {
        var uploads: [OCFLVersionPlan.NewContent] = []
        var resumed = 0
        for versionPlan in plans {
            let present = try remote.list(prefix: "\(objectPath)/\(versionPlan.name)/content/")
            for content in versionPlan.newContent {
                if present["\(objectPath)/\(content.contentPath)"] == content.size { resumed += 1 } else { uploads.append(content) }
            }
        }
        return (uploads, resumed)
    }

    /// The folder below `vN/content/` a version's new files go to: the first 16 hex digits
    /// of its id, so that two pushes racing for `vN` with different versions never write
    /// the same key, and a push resumed writes the same keys again.
    static func contentFolder(of id: VersionID) -> String {
        String(id.prefix(16))
    }

    /// Removes what a push that lost the race uploaded, but for files the winner's
    /// inventory names (it pushed the same version, from another copy).
    private static func removeUploads(of plans: [OCFLVersionPlan], objectPath: String, from remote: any RemoteStore) throws {
        let winner = try? remote.read("\(objectPath)/inventory.json").flatMap { try? JSONDecoder().decode(OCFLInventory.self, from: $0.data) }
        let kept = Set(winner.map { Array($0.manifest.values.joined()) } ?? [])
        for plan in plans {
            for content in plan.newContent where !kept.contains(content.contentPath) {
                try remote.delete("\(objectPath)/\(content.contentPath)")
            }
        }
    }
}
