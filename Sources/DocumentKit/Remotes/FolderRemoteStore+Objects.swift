import Foundation

/// How a folder remote adds versions to an object in one step: the new object is built
/// beside the root's objects, in `extensions/documentkit-push` (which OCFL validators do
/// not walk), from hard links to the files the object holds, the staged new files and the
/// new inventories; then, under the object's lock and only if its inventory is still the
/// one the push read, it takes the object's place in one `renameat2` exchange. At every
/// instant the object is the old one or the new one, each valid OCFL; a killed push leaves
/// only its staging folder, outside every object, which the same push run again reuses.
extension FolderRemoteStore {
    /// The folder below the root where pushes stage their files and keep their locks.
    static let pushFolder = "extensions/documentkit-push"

    public func pushStagingFolder(for key: String) -> String? {
        "\(Self.pushFolder)/\(key)"
    }

    public func replaceObject(
        at objectPath: String, stagedIn staging: String, adding files: [(path: String, data: Data)],
        ifTag tag: String?
    ) throws -> Bool {
        // A tree of this run's own: another push of the same versions may be building one.
        let tree = "\(staging)/tree-\(UUID().uuidString.lowercased())"
        let shadow = "\(tree)/\(objectPath)"
        // After the exchange it holds the old object; after a lost race, the unused new one.
        defer { try? removeFolder(tree) }
        try makeFolder(shadow)
        let current = url(objectPath)
        // A new object takes nothing from a folder a push killed before it named a version.
        if tag != nil {
            try linkFiles(of: objectPath, into: shadow)
        }
        // A version that brings no new file has no staged folder.
        for name in (try? FileTree.names(in: url(staging).path)) ?? []
        where OCFLInventory.versionNumber(name) != nil {
            try linkFiles(of: "\(staging)/\(name)", into: "\(shadow)/\(name)")
        }
        for (path, data) in files {
            try write("\(shadow)/\(path)", data)
        }
        // Every file the new object names is on stable storage before it takes the object's place.
        try flush()

        // The lock is held only to compare and exchange: a push killed while holding it
        // leaves a lock the next push waits for, then names.
        let replaced = try holdingObjectLock(objectPath) { () throws -> Bool in
            guard try read("\(objectPath)/inventory.json")?.tag == tag else { return false }
            if SystemCall.linkStatus(current.path) == nil {
                try placeNewObject(objectPath, builtIn: tree)
            } else if !SystemCall.rename(url(shadow).path, to: current.path, .exchanging) {
                guard errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP else {
                    throw DocumentKitError(
                        .ioError,
                        SystemError.message("cannot replace the object with its new version", errno: errno),
                        path: reported(objectPath))
                }
                try addVersionsOneByOne(from: shadow, to: objectPath, files: files)
            }
            return true
        }
        guard replaced else { return false }
        try SystemCall.synchronizeFileSystem(of: root.path, reportedAs: displayPath)
        return true
    }

    public func holdingObjectLock<Value>(_ objectPath: String, _ body: () throws -> Value) throws -> Value {
        let lockKey = "\(Self.pushFolder)/\((objectPath as NSString).lastPathComponent)"
        try makeParent(of: lockKey)
        let lock = try takeLock(url(lockKey).path + ".lock", for: objectPath)
        defer { _ = SystemCall.removeFile(lock) }
        return try body()
    }

    /// Moves a new object into place: the highest of its folders that does not exist yet
    /// (a tuple folder of the layout, or the object's own), so that no empty folder is
    /// ever seen in the root's hierarchy.
    private func placeNewObject(_ objectPath: String, builtIn tree: String) throws {
        var top = objectPath
        while true {
            let parent = (top as NSString).deletingLastPathComponent
            guard !parent.isEmpty, SystemCall.linkStatus(url(parent).path) == nil else { break }
            top = parent
        }
        try makeParent(of: top)
        do {
            try FileTree.move(url("\(tree)/\(top)"), to: url(top))
        } catch {
            throw DocumentKitError(.cannotCreateOutput, "cannot move the new object into place", path: reported(top))
        }
    }

    /// Where a file system has no exchange (`EINVAL`: some network file systems): each new
    /// version folder moved in, then the inventory, then its sidecar, so that the object
    /// is invalid only for the moments in between, and the next push repairs a killed one.
    private func addVersionsOneByOne(from shadow: String, to objectPath: String, files: [(path: String, data: Data)])
        throws
    {
        for name in try FileTree.names(in: url(shadow).path).compactMap(
            OCFLInventory.versionNumber
        ).sorted().map(OCFLInventory.versionName)
        where SystemCall.linkStatus(url("\(objectPath)/\(name)").path) == nil {
            do {
                try FileTree.move(url("\(shadow)/\(name)"), to: url("\(objectPath)/\(name)"))
            } catch {
                throw DocumentKitError(
                    .cannotCreateOutput, "cannot move the new version into place",
                    path: reported("\(objectPath)/\(name)"))
            }
        }
        for name in ["inventory.json", "inventory.json.sha512"] {
            if let file = files.first(where: { $0.path == name }) { try write("\(objectPath)/\(name)", file.data) }
        }
    }

    /// Gives every file below `source` a second name at the same place below `destination`.
    private func linkFiles(of source: String, into destination: String) throws {
        let base = url(source).standardizedFileURL.path
        guard FileTree.isFolder(base) else { return }
        try makeFolder(destination)
        try FileTree.walk(below: base) { relative in
            let name = (relative as NSString).lastPathComponent
            let from = "\(base)/\(relative)"
            guard let info = SystemCall.linkStatus(from) else { return true }
            // Temporaries of writes (killed or under way) and locks are not the object's.
            guard !name.hasPrefix("."), !name.hasSuffix(".lock") else { return false }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                try makeFolder("\(destination)/\(relative)")
            } else if (info.st_mode & S_IFMT) == S_IFREG {
                guard SystemCall.link(from, to: url("\(destination)/\(relative)").path) else {
                    throw DocumentKitError(
                        .ioError,
                        SystemError.message("cannot link \(relative) into the new object", errno: errno),
                        path: reported(source))
                }
            }
            return true
        }
    }

    private func makeFolder(_ key: String) throws {
        do {
            try FileTree.makeFolders(url(key))
        } catch {
            throw DocumentKitError(.cannotCreateOutput, "cannot create the folder", path: reported(key))
        }
    }

    public func removeFolder(_ key: String) throws {
        if SystemCall.linkStatus(url(key).path) != nil {
            do {
                try FileTree.remove(url(key))
            } catch {
                throw DocumentKitError(.ioError, "cannot remove the folder", path: reported(key))
            }
        }
        // A push's staging folder gone, the push folder goes too when nothing else is in
        // it, so that a push leaves the root as it found it: a validator warns of a root
        // extension it does not know.
        if key.hasPrefix(Self.pushFolder + "/") {
            _ = SystemCall.removeEmptyFolder(url(Self.pushFolder).path)
        }
    }

    /// Removes below `prefix` the temporary files of killed writes that no writer holds,
    /// and the folders left empty (OCFL forbids empty folders in a version's content).
    public func tidy(_ prefix: String) throws {
        let base = url(prefix).standardizedFileURL.path
        guard FileTree.isFolder(base) else { return }
        var folders: [String] = [base]
        for relative in FileTree.paths(below: base) {
            let path = "\(base)/\(relative)"
            let name = (relative as NSString).lastPathComponent
            if let info = SystemCall.linkStatus(path), (info.st_mode & S_IFMT) == S_IFDIR {
                folders.append(path)
            } else if name.hasPrefix("."), name.hasSuffix(TemporarySibling.suffix), let start = name.range(of: ".dk-") {
                AtomicReplacement.removeLeftovers(
                    of: URL(fileURLWithPath: (path as NSString).deletingLastPathComponent)
                        .appendingPathComponent(String(name[name.index(after: name.startIndex)..<start.lowerBound])))
            }
        }
        // Deepest first, so that a folder emptied by removing its folders goes too.
        for folder in folders.sorted(by: { $0.count > $1.count }) where folder != base {
            if (try? FileTree.names(in: folder))?.isEmpty == true {
                _ = SystemCall.removeEmptyFolder(folder)
            }
        }
    }
}
