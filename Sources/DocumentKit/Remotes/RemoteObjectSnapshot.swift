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
            throw DocumentKitError(.malformedInput, "the object at \(objectPath) has the id \(inventory.id), not \(expectedID)", path: remote.displayPath)
        }
        return RemoteObjectSnapshot(remote: remote, objectPath: objectPath, inventory: inventory, tag: tag)
    }

    /// The bundle version each OCFL version holds, in order. A version whose record is the
    /// one this bundle would write (same SHA-512) is known without reading it; any other
    /// record is read and checked.
    func versionIDs(matching bundle: DocumentBundle) throws -> [VersionID] {
        guard let inventory else { return [] }
        var local: [String: VersionID] = [:]
        for version in bundle.manifest.versions {
            let record = try OCFLVersionRecord(contentType: bundle.manifest.contentType, mimeType: bundle.mimeType, version: version).encoded()
            local[OCFLInventory.sha512(record)] = version.id
        }
        let object = OCFLObject(storage: remote, path: objectPath, inventory: inventory, records: [])
        return try inventory.versionNames.map { name in
            let digest = inventory.versions[name]!.state.first { $0.value.contains(OCFLVersionRecord.path) }?.key
            if let digest, let id = local[digest] { return id }
            return try DocumentKitError.located(at: remote.reported(objectPath)) {
                try OCFLVersionRecord.decode(object.file(OCFLVersionRecord.path, in: name), in: name).version.id
            }
        }
    }

    /// Writes what a push writes after moving the head, where it is missing: each newest
    /// version's own inventory and sidecar (the object's inventory as of that version),
    /// then the object's sidecar. Run by every push, so one killed after its
    /// compare-and-swap is finished by the next.
    static func finishInterruptedPush(_ remote: any RemoteStore, objectPath: String, inventory: OCFLInventory) throws {
        for name in inventory.versionNames.reversed() {
            guard try remote.size("\(objectPath)/\(name)/inventory.json") == nil else { break }
            let data = try inventory.truncated(to: name).encoded()
            try remote.write("\(objectPath)/\(name)/inventory.json", data)
            try remote.write("\(objectPath)/\(name)/inventory.json.sha512", OCFLInventory.sidecar(for: data))
        }
        let data = try inventory.encoded()
        let sidecar = OCFLInventory.sidecar(for: data)
        if try remote.read("\(objectPath)/inventory.json.sha512")?.data != sidecar,
           try remote.read("\(objectPath)/inventory.json")?.data == data {
            try remote.write("\(objectPath)/inventory.json.sha512", sidecar)
        }
    }

    /// Removes from the version folders `names` every file the inventory does not name:
    /// what pushes that lost the race for those versions, or were killed, left there.
    static func sweep(_ names: [String], of inventory: OCFLInventory, objectPath: String, in remote: any RemoteStore) throws {
        let named = Set(inventory.manifest.values.joined())
        for name in names {
            for key in try remote.list(prefix: "\(objectPath)/\(name)/").keys {
                let path = String(key.dropFirst(objectPath.count + 1))
                guard !named.contains(path), path != "\(name)/inventory.json", path != "\(name)/inventory.json.sha512" else { continue }
                try remote.delete(key)
            }
        }
    }
}
