import Foundation

/// A project's object on a remote as a push or a fetch finds it: its inventory, checked,
/// and the tag its compare-and-swap must match; `nil` for both when there is no object yet.
struct RemoteObjectSnapshot {
    let remote: any RemoteStore
    let objectPath: String
    var inventory: OCFLInventory?
    var tag: String?

    static func read(_ remote: any RemoteStore, objectPath: String, expectedID: String) throws -> RemoteObjectSnapshot {
        guard let (data, tag) = try remote.read("\(objectPath)/inventory.json") else {
            return RemoteObjectSnapshot(remote: remote, objectPath: objectPath, inventory: nil, tag: nil)
        }
        let inventory = try OCFLObject.readInventory(remote, at: objectPath, data: data)
        guard inventory.id == expectedID else {
            throw DocumentKitError(
                .malformedInput, "the object at \(objectPath) has the id \(inventory.id), not \(expectedID)",
                path: remote.displayPath)
        }
        return RemoteObjectSnapshot(remote: remote, objectPath: objectPath, inventory: inventory, tag: tag)
    }

    /// The bundle version each OCFL version holds, in order. A version whose record is the
    /// one this bundle would write (same SHA-512) is known without reading it; any other
    /// record is read and checked.
    func versionIDs(matching bundle: DocumentBundle) throws -> [VersionID] {
        guard let inventory else { return [] }
        let local = try Self.recordDigests(of: bundle)
        let object = OCFLObject(storage: remote, path: objectPath, inventory: inventory, records: [])
        return try inventory.versionNames.map { name in
            let digest = inventory.versions[name]!.state.first { $0.value.contains(OCFLVersionRecord.path) }?.key
            if let digest, let id = local[digest] { return id }
            return try DocumentKitError.located(at: remote.reported(objectPath)) {
                try OCFLVersionRecord.decode(object.file(OCFLVersionRecord.path, in: name), in: name).version.id
            }
        }
    }

    /// The SHA-512 of the `documentkit/version.json` this bundle writes for each of its
    /// versions, by digest: how an object's versions are matched to the bundle's unread.
    static func recordDigests(of bundle: DocumentBundle) throws -> [String: VersionID] {
        var local: [String: VersionID] = [:]
        for version in try bundle.manifest.versions {
            let record = try OCFLVersionRecord(
                contentType: bundle.contentTypeIdentifier, mimeType: bundle.mimeType, version: version
            ).encoded()
            local[OCFLInventory.sha512(record)] = version.id
        }
        return local
    }

    /// Repairs what an interrupted or overtaken push left in the object, so that it is
    /// valid OCFL again: each version of the old layout's own inventory and sidecar (the
    /// object's inventory as of that version, oldest first), where either is missing; any
    /// copy a version of the history layout holds (pushes of releases that kept the head's);
    /// the object's sidecar, when it is not that of its inventory; files in a version folder
    /// the inventory does not name; temporary files and empty folders. Run by every push,
    /// the one that is up to date too.
    ///
    /// It runs under the object's lock, and only while the object's inventory is still the
    /// one read (`tag`): else another push's version, committed since, would look like
    /// what a killed push left, and be removed (the next push repairs instead).
    static func repair(_ remote: any RemoteStore, objectPath: String, inventory: OCFLInventory, tag: String?) throws {
        try remote.holdingObjectLock(objectPath) {
            guard try remote.read("\(objectPath)/inventory.json")?.tag == tag else { return }
            try repairHoldingLock(remote, objectPath: objectPath, inventory: inventory)
        }
    }

    private static func repairHoldingLock(_ remote: any RemoteStore, objectPath: String, inventory: OCFLInventory)
        throws
    {
        let present = try remote.list(prefix: "\(objectPath)/")
        for name in inventory.versionNames {
            let key = "\(objectPath)/\(name)/inventory.json"
            guard OCFLLayout.of(inventory.versions[name]!) == .versionPerVersion else {
                for stale in [key, "\(key).sha512"] where present[stale] != nil { try remote.delete(stale) }
                continue
            }
            guard present[key] == nil || present["\(key).sha512"] == nil else { continue }
            let data = try inventory.truncated(to: name).encoded()
            try remote.write(key, data)
            try remote.write("\(key).sha512", OCFLInventory.sidecar(for: data))
        }
        try writeSidecar(remote, objectPath: objectPath)
        let named = Set(inventory.manifest.values.joined().map { "\(objectPath)/\($0)" })
        // A store that stages pushes never writes a version folder the inventory does not
        // name yet: one there is what a push of an earlier release left. On S3 it is a push's
        // uploads, which the push run again resumes.
        let stages = remote.pushStagingFolder(for: "") != nil
        for key in present.keys.sorted() where !named.contains(key) {
            let parts = key.dropFirst(objectPath.count + 1).split(separator: "/", maxSplits: 1)
            guard parts.count == 2, let number = OCFLInventory.versionNumber(String(parts[0])) else { continue }
            let committed = number <= inventory.versions.count
            guard committed ? parts[1] != "inventory.json" && parts[1] != "inventory.json.sha512" : stages else {
                continue
            }
            try remote.delete(key)
        }
        try remote.tidy(objectPath)
    }

    /// Writes the object's sidecar for the inventory it holds, when it is not already.
    static func writeSidecar(_ remote: any RemoteStore, objectPath: String) throws {
        guard let (data, _) = try remote.read("\(objectPath)/inventory.json") else { return }
        let sidecar = OCFLInventory.sidecar(for: data)
        if try remote.read("\(objectPath)/inventory.json.sha512")?.data != sidecar {
            try remote.write("\(objectPath)/inventory.json.sha512", sidecar)
        }
    }
}
