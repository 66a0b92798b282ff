import Foundation

/// Adds bundle versions to one OCFL object, one OCFL version each: builds the version
/// folder (its new content, its inventory and sidecar) in the root's staging folder, moves
/// it into the object, then replaces the object's inventory and sidecar. A new object is
/// built whole in the staging folder with its first version and moved into place.
struct OCFLVersionWriter {
    let storage: any ArchiveStorage
    let objectPath: String
    private(set) var inventory: OCFLInventory
    private var isNew: Bool
    private(set) var added: [String] = []
    private(set) var filesStored = 0
    private(set) var bytesStored: UInt64 = 0

    init(storage: any ArchiveStorage, objectPath: String, inventory: OCFLInventory, isNew: Bool) {
        self.storage = storage
        self.objectPath = objectPath
        self.inventory = inventory
        self.isNew = isNew
    }

    mutating func add(_ version: BundleVersion, of bundle: DocumentBundle) throws {
        let name = OCFLInventory.versionName(inventory.versions.count + 1)
        let where_ = "version \(version.number) (\(version.shortID))"
        var files = try DocumentKitError.located(at: bundle.url.relativePath) {
            var files: [(path: String, file: FileWrapper)] = []
            try Self.collect(bundle.tree(of: version), path: "", into: &files, location: where_)
            return files
        }
        let record = try OCFLVersionRecord(contentType: bundle.manifest.contentType, mimeType: bundle.mimeType, version: version).encoded()
        files.append((OCFLVersionRecord.path, FileWrapper(regularFileWithContents: record)))

        var state: [String: [String]] = [:]
        var newContent: [(path: String, data: Data)] = []
        var fixity = inventory.fixity?["sha256"] ?? [:]
        for (path, file) in files {
            let data = try file.regularFileContents()
            let digest = OCFLInventory.sha512(data)
            state[digest, default: []].append(path)
            guard inventory.manifest[digest] == nil else { continue }
            let contentPath = "\(name)/content/\(path)"
            inventory.manifest[digest] = [contentPath]
            fixity[ObjectDigest.of(data).hex, default: []].append(contentPath)
            newContent.append((contentPath, data))
        }
        inventory.fixity = ["sha256": fixity.mapValues { $0.sorted() }]
        inventory.versions[name] = OCFLInventory.Version(created: DocumentDates.format(version.created), message: version.message,
                                                        user: Self.user(version.author), state: state.mapValues { $0.sorted() })
        inventory.head = name
        let inventoryData = try inventory.encoded()
        let sidecar = OCFLInventory.sidecar(for: inventoryData)

        let staging = "\(OCFLStorageRoot.stagingFolder)/\(UUID().uuidString.lowercased())"
        let versionFolder = isNew ? "\(staging)/object/\(name)" : "\(staging)/\(name)"
        try storage.makeFolder(versionFolder)
        for (contentPath, data) in newContent {
            let path = "\(versionFolder)/\(contentPath.dropFirst(name.count + 1))"
            try storage.makeFolder((path as NSString).deletingLastPathComponent)
            try storage.writeFileAtomically(path, data)
        }
        try storage.writeFileAtomically("\(versionFolder)/inventory.json", inventoryData)
        try storage.writeFileAtomically("\(versionFolder)/inventory.json.sha512", sidecar)
        if isNew {
            let object = "\(staging)/object"
            try storage.writeFileAtomically("\(object)/\(OCFLObject.declaration)", Data(OCFLObject.declarationText.utf8))
            try storage.writeFileAtomically("\(object)/inventory.json", inventoryData)
            try storage.writeFileAtomically("\(object)/inventory.json.sha512", sidecar)
            try storage.makeFolder((objectPath as NSString).deletingLastPathComponent)
            try storage.move(object, to: objectPath)
            isNew = false
        } else {
            try storage.move(versionFolder, to: "\(objectPath)/\(name)")
            // The version counts from here: the inventory names it, then the sidecar agrees.
            try storage.writeFileAtomically("\(objectPath)/inventory.json", inventoryData)
            try storage.writeFileAtomically("\(objectPath)/inventory.json.sha512", sidecar)
        }
        try storage.remove(staging)
        added.append(name)
        filesStored += newContent.count
        bytesStored += newContent.reduce(0) { $0 + UInt64($1.data.count) }
    }

    /// Every regular file below `node`, by its path. An empty folder is refused: OCFL
    /// keeps files, not folders, so the tree could not be rebuilt; so is a file in
    /// `documentkit/`, where the version's record goes.
    private static func collect(_ node: FileWrapper, path: String, into files: inout [(path: String, file: FileWrapper)], location: String) throws {
        let children = node.fileWrappers ?? [:]
        if children.isEmpty, !path.isEmpty {
            throw DocumentKitError(.malformedInput, "its tree holds the empty folder '\(path)', which OCFL cannot keep", location: location)
        }
        for (name, child) in children.sorted(by: { $0.key < $1.key }) {
            let childPath = path.isEmpty ? name : "\(path)/\(name)"
            if childPath == "documentkit" {
                throw DocumentKitError(.malformedInput, "its tree holds 'documentkit', where the archive keeps the version's record", location: location)
            }
            if child.isDirectory {
                try collect(child, path: childPath, into: &files, location: location)
            } else {
                files.append((childPath, child))
            }
        }
    }

    /// OCFL's user: the author as name, and `mailto:` when the author ends in `<address>`.
    static func user(_ author: String) -> OCFLInventory.User {
        var address: String?
        if author.hasSuffix(">"), let open = author.lastIndex(of: "<") {
            let email = author[author.index(after: open)..<author.index(before: author.endIndex)]
            if email.contains("@"), !email.contains(" ") { address = "mailto:\(email)" }
        }
        return OCFLInventory.User(name: author, address: address)
    }
}
