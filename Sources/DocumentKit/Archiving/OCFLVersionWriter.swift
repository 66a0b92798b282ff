import Foundation

/// Adds bundle versions to one OCFL object in a local storage root, one OCFL version each:
/// builds the version folder (its new content, streamed, its inventory and sidecar) in
/// the root's staging folder, moves it into the object, then replaces the object's
/// inventory and sidecar. A new object is built whole in the staging folder with its first
/// version and moved into place.
struct OCFLVersionWriter {
    let storage: any ArchiveStore
    let objectPath: String
    private(set) var inventory: OCFLInventory
    private var isNew: Bool
    private var digests: OCFLDigestIndex
    private(set) var added: [String] = []
    private(set) var filesStored = 0
    private(set) var bytesStored: UInt64 = 0

    init(storage: any ArchiveStore, objectPath: String, inventory: OCFLInventory, isNew: Bool) {
        self.storage = storage
        self.objectPath = objectPath
        self.inventory = inventory
        self.isNew = isNew
        digests = OCFLDigestIndex(isNew ? nil : inventory)
    }

    mutating func add(_ version: BundleVersion, of bundle: DocumentBundle) throws {
        let plan = try OCFLVersionPlan.next(after: inventory, adding: version, of: bundle, contentFolder: nil, digests: &digests)
        let name = plan.name
        inventory = plan.inventory
        let inventoryData = try inventory.encoded()
        let sidecar = OCFLInventory.sidecar(for: inventoryData)

        let staging = "\(OCFLStorageRoot.stagingFolder)/\(UUID().uuidString.lowercased())"
        let versionFolder = isNew ? "\(staging)/object/\(name)" : "\(staging)/\(name)"
        try storage.makeFolder(versionFolder)
        for content in plan.newContent {
            let path = "\(versionFolder)/\(content.contentPath.dropFirst(name.count + 1))"
            try storage.makeFolder((path as NSString).deletingLastPathComponent)
            try DocumentKitError.located(at: bundle.url.relativePath) {
                try storage.writeFileAtomically(path, streaming: content.file)
            }
        }
        // The content was written unflushed: all of it reaches the disk before the version
        // folder moves into the object.
        try storage.flush()
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
        filesStored += plan.newContent.count
        bytesStored += plan.newContent.reduce(0) { $0 + $1.size }
    }
}
