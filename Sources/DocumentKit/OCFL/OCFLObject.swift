import Foundation

/// An OCFL object DocumentKit wrote, read and checked: its inventory (against its
/// sidecar) and each version's `documentkit/version.json` (against the inventory's digest).
struct OCFLObject {
    let storage: any OCFLRootReading
    /// The object's folder, relative to the storage's root (`""` when the storage is the object).
    let path: String
    let inventory: OCFLInventory
    /// Each version's record, in order (v1 first).
    let records: [OCFLVersionRecord]

    static let declaration = "0=ocfl_object_1.1"
    static let declarationText = "ocfl_object_1.1\n"

    /// Whether `path` holds an OCFL 1.1 object (its declaration file).
    static func isObject(_ storage: any OCFLRootReading, at path: String) throws -> Bool {
        try storage.exists(join(path, declaration))
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : "\(folder)/\(name)"
    }

    /// Reads the object at `path`: refused (`malformedInput`) unless its declaration,
    /// inventory and sidecar agree and, when its head is of the layout of one OCFL version
    /// per bundle version, every version has a DocumentKit record. (A head of the history
    /// layout holds the whole history: no record is read.)
    static func read(_ storage: any OCFLRootReading, at path: String) throws -> OCFLObject {
        let inventory = try readInventory(storage, at: path)
        let object = OCFLObject(storage: storage, path: path, inventory: inventory, records: [])
        guard inventory.headLayout == .versionPerVersion else { return object }
        let records = try inventory.versionNames.map { name in
            try DocumentKitError.located(at: storage.reported(path)) {
                try OCFLVersionRecord.decode(object.file(OCFLVersionRecord.path, in: name), in: name)
            }
        }
        return OCFLObject(storage: storage, path: path, inventory: inventory, records: records)
    }

    /// Reads and checks the inventory of the object at `path` (given as `data` when the
    /// caller read it already): its declaration, its sidecar, and that it is an OCFL 1.1
    /// inventory of versions `v1` to its head.
    static func readInventory(_ storage: any OCFLRootReading, at path: String, data given: Data? = nil) throws
        -> OCFLInventory
    {
        let reportedPath = storage.reported(path)
        guard try storage.readFileIfPresent(join(path, declaration)) == Data(declarationText.utf8) else {
            throw DocumentKitError(
                .malformedInput, "not an OCFL 1.1 object: no \(declaration) declaration", path: reportedPath)
        }
        let data = try given ?? storage.readFile(join(path, "inventory.json"))
        let inventory: OCFLInventory
        do {
            inventory = try JSONDecoder().decode(OCFLInventory.self, from: data)
        } catch {
            throw DocumentKitError(.malformedInput, "inventory.json is not an OCFL inventory", path: reportedPath)
        }
        let names = inventory.versionNames
        guard inventory.digestAlgorithm == OCFLInventory.digestAlgorithm, inventory.type == OCFLInventory.inventoryType,
            !names.isEmpty, Set(inventory.versions.keys) == Set(names)
        else {
            throw DocumentKitError(
                .malformedInput,
                "inventory.json is not an OCFL 1.1 inventory with sha512 digests and versions v1 to its head",
                path: reportedPath)
        }
        let sidecar = try storage.readFileIfPresent(join(path, "inventory.json.sha512"))
        let recorded = sidecar.flatMap {
            String(decoding: $0, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first
                .map(String.init)
        }
        // A push to S3 moves the inventory first and writes the sidecar after it (FORMAT.md
        // §11), two pushes may write the sidecar in either order, and a folder without an
        // exchange writes the two one after the other: an inventory whose head version holds
        // the same bytes, or no copy (a push finishing, or one killed that the next push
        // repairs; no version of the history layout keeps one), is the object's. A head
        // version's copy that differs is damage.
        guard
            try recorded?.lowercased() == OCFLInventory.sha512(data)
                || {
                    let copy = try storage.readFileIfPresent(join(path, "\(inventory.head)/inventory.json"))
                    return try copy == data
                        || (copy == nil && !storage.exists(join(path, "\(inventory.head)/inventory.json")))
                }()
        else {
            throw DocumentKitError(
                .malformedInput, "inventory.json does not match its digest in inventory.json.sha512", path: reportedPath
            )
        }
        return inventory
    }

    /// The bytes of the file at `logicalPath` in version `name`, checked against the
    /// inventory's SHA-512 of them.
    func file(_ logicalPath: String, in name: String) throws -> Data {
        guard let digest = inventory.versions[name]?.state.first(where: { $0.value.contains(logicalPath) })?.key else {
            throw DocumentKitError(.malformedInput, "the version has no \(logicalPath)", location: name)
        }
        return try content(digest, for: logicalPath, in: name)
    }

    /// The bytes with SHA-512 `digest`, read from their content path and checked.
    func content(_ digest: String, for logicalPath: String, in name: String) throws -> Data {
        guard let contentPath = inventory.manifest[digest]?.first, Self.isSafe(contentPath) else {
            throw DocumentKitError(
                .malformedInput, "\(logicalPath): its digest is not in the inventory's manifest", location: name)
        }
        let data = try storage.readFile(Self.join(path, contentPath))
        WorkMeter.count(.fetchedBytes, data.count)
        guard OCFLInventory.sha512(data) == digest.lowercased() else {
            throw DocumentKitError(
                .malformedInput, "content file \(contentPath) is damaged: its SHA-512 is not the inventory's",
                location: name)
        }
        return data
    }

    /// A local file holding the bytes with SHA-512 `digest` (their content file, or a copy
    /// of it downloaded into `scratch`), checked in a stream before it is returned.
    func contentFile(_ digest: String, for logicalPath: String, in name: String, scratch: URL) throws -> URL {
        guard let contentPath = inventory.manifest[digest]?.first, Self.isSafe(contentPath) else {
            throw DocumentKitError(
                .malformedInput, "\(logicalPath): its digest is not in the inventory's manifest", location: name)
        }
        let file = try storage.localFile(Self.join(path, contentPath), scratch: scratch)
        WorkMeter.count(.fetchedBytes, SystemCall.status(file.path).map { Int($0.st_size) } ?? 0)
        // Progress counts the bytes fetched (a remote's download), not this second read.
        guard try ProgressMeter.bind(nil, { try OCFLInventory.sha512(ofFile: file) }) == digest.lowercased() else {
            throw DocumentKitError(
                .malformedInput, "content file \(contentPath) is damaged: its SHA-512 is not the inventory's",
                location: name)
        }
        return file
    }

    /// Whether a path from an inventory stays inside the object.
    static func isSafe(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/")
            && !path.split(separator: "/", omittingEmptySubsequences: false).contains {
                $0.isEmpty || $0 == "." || $0 == ".."
            }
    }
}
