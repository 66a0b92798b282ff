import Foundation

/// A remote in a folder, on a local disk or a network file system. Files are written
/// through `AtomicReplacement` (a temporary file, flushed, renamed), so each appears whole;
/// a compare-and-swap holds `KEY.lock`, created only if it does not exist (`O_EXCL`, which
/// NFS v3 and later honour), while it compares and renames, as git does with `index.lock`.
/// A file's tag is the SHA-256 of its bytes.
public struct FolderRemoteStore: RemoteStore {
    /// The remote's folder.
    public let root: URL
    /// How long a compare-and-swap waits for another writer's lock before it gives up.
    public var lockTimeout: TimeInterval = 10

    public init(root: URL) {
        self.root = root
    }

    public var displayPath: String { root.relativePath }

    func url(_ key: String) -> URL {
        key.isEmpty ? root : root.appendingPathComponent(key)
    }

    public func read(_ key: String) throws -> (data: Data, tag: String)? {
        guard SystemCall.status(url(key).path) != nil else { return nil }
        let data = try OpenFile.forReading(url(key)).readAll(limit: Int.max)
        return (data, ObjectDigest.of(data).hex)
    }

    public func size(_ key: String) throws -> UInt64? {
        guard let info = SystemCall.status(url(key).path), (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    public func list(prefix: String) throws -> [String: UInt64] {
        try refuseFileAsRoot()
        let folder = prefix.contains("/") ? String(prefix[..<prefix.lastIndex(of: "/")!]) : ""
        var files: [String: UInt64] = [:]
        let rootPath = root.standardizedFileURL.path
        for (file, size) in FileTree.regularFiles(below: url(folder)) {
            let path = file.standardizedFileURL.path
            guard path.hasPrefix(rootPath + "/") else { continue }
            let key = String(path.dropFirst(rootPath.count + 1))
            // Temporary files of writes under way, and locks, are not the remote's files.
            let name = file.lastPathComponent
            guard key.hasPrefix(prefix), !name.hasPrefix("."), !name.hasSuffix(".lock") else { continue }
            files[key] = size
        }
        return files
    }

    public func write(_ key: String, _ data: Data) throws {
        try makeParent(of: key)
        _ = try AtomicReplacement.writeFile(at: url(key), replace: true) { file in
            try data.withUnsafeBytes { try file.write($0) }
        }
    }

    /// Safe to call for several files at once (``TransferQueue``): each goes through a
    /// temporary of its own, and ``flush()`` makes them all durable in one call.
    public func upload(_ key: String, from file: FileWrapper, size: UInt64) throws -> UInt64 {
        try makeParent(of: key)
        // Renamed into place unflushed: ``flush()`` flushes them all before the head moves.
        return try AtomicReplacement.writeFile(at: url(key), replace: true, flushing: false) { output in
            try file.streamContents { try output.write($0) }
        }
    }

    public func flush() throws {
        try SystemCall.synchronizeFileSystem(of: root.path, reportedAs: displayPath)
    }

    public func replace(_ key: String, with data: Data, ifTag tag: String?) throws -> Bool {
        try makeParent(of: key)
        let lock = try takeLock(url(key).path + ".lock", for: key)
        defer { TemporaryRegistry.removing(lock) }
        guard try read(key)?.tag == tag else { return false }
        try write(key, data)
        return true
    }

    public func delete(_ key: String) throws {
        guard SystemCall.removeFile(url(key).path) else {
            throw DocumentKitError(
                .ioError, SystemError.message("cannot remove it", errno: errno), path: reported(key))
        }
    }

    public func download(_ key: String, to destination: URL) throws {
        let source = try OpenFile.forReading(url(key))
        let output = try OpenFile.creatingExclusively(destination.path)
        try source.stream { try output.write($0) }
    }

    /// Refuses a root that is a file, or below one: a push would otherwise fail to create
    /// the folder of its first file, naming that.
    private func refuseFileAsRoot() throws {
        // Walked up as the user wrote the path, so that the message names it so.
        var path = root.relativePath
        while SystemCall.linkStatus(path) == nil {
            let parent = PathText.parent(of: path)
            guard !parent.isEmpty, parent != path else { break }
            path = parent
        }
        guard let info = SystemCall.status(path), (info.st_mode & S_IFMT) != S_IFDIR else { return }
        let file = path == root.relativePath ? "" : " (\(path) is)"
        throw DocumentKitError(
            .cannotCreateOutput,
            "is a file, not a folder\(file): a remote is a folder (made when missing) or s3://BUCKET/PREFIX",
            path: displayPath)
    }

    func makeParent(of key: String) throws {
        let parent = url(key).deletingLastPathComponent()
        do {
            try FileTree.makeFolders(parent)
        } catch {
            // Uploads side by side make the same folders: one made by another is no failure.
            if let info = SystemCall.status(parent.path), (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw DocumentKitError.system(
                "cannot create the folder", path: reported((key as NSString).deletingLastPathComponent), error: error)
        }
    }

    /// Creates the lock at `path` with its text (this process and machine) already in it:
    /// written to a file of its own, then linked to `path`, which fails when a lock is there
    /// (`link(2)` is as atomic as `O_EXCL`). A lock created empty and filled after left,
    /// when its push was killed between the two, a lock naming nothing, which every later
    /// push waited out as a live writer's (the crash harness found one). Registered, so
    /// that an interrupted push removes its lock (``Interruption``). Whether it took it;
    /// `errno` says why not.
    private func createLockWhole(_ path: String) -> Bool {
        let text = Data("\(ProcessInfo.processInfo.processIdentifier) \(ProcessInfo.processInfo.hostName)\n".utf8)
        let taking = "\(path).taking-\(UUID().uuidString.lowercased())"
        do {
            let file = try TemporaryRegistry.creating(taking) { try OpenFile.creatingExclusively(taking, mode: 0o644) }
            try file?.write(text)
        } catch {
            let reason = errno
            TemporaryRegistry.removing(taking)
            errno = reason
            return false
        }
        let linked = TemporaryRegistry.creating(path) { SystemCall.link(taking, to: path) ? true : nil } ?? false
        let reason = errno
        TemporaryRegistry.removing(taking)
        errno = reason
        return linked
    }

    /// Creates the lock file, waiting up to `lockTimeout` for a writer that holds it (a
    /// lock whose writer on this machine has ended is removed at once).
    func takeLock(_ path: String, for key: String) throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(lockTimeout))
        while true {
            if createLockWhole(path) { return path }
            guard errno == EEXIST || SystemCall.linkStatus(path) != nil else {
                throw DocumentKitError(
                    .ioError, SystemError.message("cannot create the lock \(key).lock", errno: errno),
                    path: displayPath)
            }
            if removeLockOfEndedProcess(path) { continue }
            if clock.now >= deadline {
                let since =
                    SystemCall.linkStatus(path).map {
                        DocumentDates.format(Date(timeIntervalSince1970: TimeInterval($0.st_mtim.tv_sec)))
                    } ?? "?"
                let file = path.hasPrefix(root.path + "/") ? String(path.dropFirst(root.path.count + 1)) : path
                throw DocumentKitError(
                    .conflict, "\(key) is locked by another push since \(since); if none is running, remove \(file)",
                    path: displayPath)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}
