import Foundation

/// Finishes what a killed archive left in an object: a version folder moved into place
/// whose inventory the object's does not name yet, or an inventory written without its
/// sidecar. Each version folder holds the object's inventory as of that version, with its
/// sidecar, so the newest complete one is what the object's inventory must be.
enum OCFLRecovery {
    static func finishInterruptedVersion(_ storage: any ArchiveStore, objectPath: String) throws {
        guard try OCFLObject.isObject(storage, at: objectPath) else { return }
        let versions = try storage.list(objectPath).compactMap(OCFLInventory.versionNumber).sorted()
        guard let newest = versions.last else { return }
        let folder = "\(objectPath)/\(OCFLInventory.versionName(newest))"
        guard let inventory = try? storage.readFile("\(folder)/inventory.json"),
              let sidecar = try? storage.readFile("\(folder)/inventory.json.sha512"),
              sidecar == OCFLInventory.sidecar(for: inventory),
              let decoded = try? JSONDecoder().decode(OCFLInventory.self, from: inventory),
              decoded.head == OCFLInventory.versionName(newest) else { return }
        let current = try? storage.readFile("\(objectPath)/inventory.json")
        let currentSidecar = try? storage.readFile("\(objectPath)/inventory.json.sha512")
        if current == inventory, currentSidecar == sidecar { return }
        // The object's inventory is older than its newest version folder, or has no
        // matching sidecar: the killed archive had got that far.
        if let current, let older = try? JSONDecoder().decode(OCFLInventory.self, from: current),
           let olderNumber = OCFLInventory.versionNumber(older.head), olderNumber > newest {
            return
        }
        try storage.writeFileAtomically("\(objectPath)/inventory.json", inventory)
        try storage.writeFileAtomically("\(objectPath)/inventory.json.sha512", sidecar)
    }
}
