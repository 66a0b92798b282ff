import Foundation

extension RemoteRoot {
    /// Where a remote keeps a bundle's project: the object's id and folder, and whether
    /// the remote holds it yet.
    struct ProjectObject {
        var id: String
        var path: String
        var exists: Bool
    }

    /// The object of the bundle's project on `remote`. First where the bundle's object id
    /// (``OCFLDeposit/objectID(of:)``) puts it; when nothing is there, any object of the
    /// root that holds one of the bundle's versions, or whose id names one of them or one
    /// the bundle pruned: a copy cloned from a pruned object by an earlier release, which
    /// did not keep the project's first version in `pruned`, derives another id than the
    /// copy that pushed it, and finds the object so (FORMAT.md §10, "The object"). Only
    /// when no object holds the project is it a new object at the bundle's own id.
    static func projectObject(of bundle: DocumentBundle, in remote: any RemoteStore) throws -> ProjectObject {
        let id = try OCFLDeposit.objectID(of: bundle)
        let path = OCFLStorageRoot.objectPath(for: id)
        // A copy that pruned nothing derives the id every release derived: only a pruned
        // one may find its project under another.
        let exists = try remote.size("\(path)/inventory.json") != nil
        if try exists || (bundle.history.map { $0.manifest.pruned == 0 } ?? bundle.manifest.pruned.isEmpty) {
            return ProjectObject(id: id, path: path, exists: exists)
        }
        let known = Set(try bundle.manifest.versions.map(\.id)).union(try bundle.manifest.pruned)
        let records = try RemoteObjectSnapshot.recordDigests(of: bundle)
        for other in try objectPaths(remote) where other != path {
            // An object this build cannot read is no copy of this project to take.
            guard let inventory = try? OCFLObject.readInventory(remote, at: other) else { continue }
            let named =
                inventory.id.hasPrefix("documentkit:")
                && known.contains(String(inventory.id.dropFirst("documentkit:".count)))
            let holdsOne =
                try inventory.versions.values.contains { version in
                    version.state.contains { $0.value.contains(OCFLVersionRecord.path) && records[$0.key] != nil }
                }
                || inventory.headLayout == .history
                    && historyMeets(known, OCFLObject(storage: remote, path: other, inventory: inventory, records: []))
            if named || holdsOne {
                return ProjectObject(id: inventory.id, path: other, exists: true)
            }
        }
        return ProjectObject(id: id, path: path, exists: false)
    }

    /// The object of the bundle's project, refusing (`missingInput`) a remote that holds none.
    static func requireProjectObject(of bundle: DocumentBundle, in remote: any RemoteStore) throws -> ProjectObject {
        let object = try projectObject(of: bundle, in: remote)
        guard object.exists else {
            throw DocumentKitError(
                .missingInput, "holds no copy of this project (object \(object.id)); push it first",
                path: remote.displayPath)
        }
        return object
    }

    /// Whether the history an object of the history layout holds meets `known`: its head,
    /// or a version of its newest segment or a parent of one, is among them. A copy a few
    /// pushes behind meets the object so; one further behind needs the object's own id.
    private static func historyMeets(_ known: Set<VersionID>, _ object: OCFLObject) throws -> Bool {
        // An object this build cannot read is no copy of this project to take.
        guard let reader = try? OCFLHistoryReader(object, scratch: nil) else { return false }
        if known.contains(reader.manifest.head) { return true }
        guard (try? reader.fetchOlderSegment()) == true, let versions = try? reader.versions(inSegment: 0) else {
            return false
        }
        return versions.contains { known.contains($0.id) || $0.parents.contains(where: known.contains) }
    }
}
