import Foundation

/// Where a remote keeps its files: a folder (``FolderRemoteStore``) or a bucket of an
/// S3-compatible service (DocumentKitS3's `S3RemoteStore`). Keys are `/`-separated paths
/// below the remote's root; a remote is an OCFL storage root (FORMAT.md §11).
///
/// What a push relies on: a file appears whole or not at all (`write`, `upload`), and
/// ``replace(_:with:ifTag:)`` is a compare-and-swap, so that of two writers that read the
/// same tag only one replaces the file.
public protocol RemoteStore: OCFLRootReading {
    /// The file at `key` and its tag (what ``replace(_:with:ifTag:)`` compares), or `nil`
    /// when there is none.
    func read(_ key: String) throws -> (data: Data, tag: String)?
    /// The size of the file at `key`, or `nil` when there is none.
    func size(_ key: String) throws -> UInt64?
    /// The sizes of the files whose keys start with `prefix`, by key.
    func list(prefix: String) throws -> [String: UInt64]
    /// Stores `data` at `key`, replacing any file there.
    func write(_ key: String, _ data: Data) throws
    /// Stores the bytes of `file`, read in a stream, at `key`; a large file goes in parts,
    /// and the parts of an earlier, interrupted upload of the same key that match are not
    /// sent again. Returns the bytes sent.
    func upload(_ key: String, from file: FileWrapper, size: UInt64) throws -> UInt64
    /// Makes every file stored so far durable (uploads may be renamed into place without
    /// being flushed one by one); a push calls it before it moves the head.
    func flush() throws
    /// Replaces the file at `key` with `data` if its tag is still `tag` (when `tag` is
    /// `nil`: if there is no file); returns `false`, changing nothing, when it is not.
    func replace(_ key: String, with data: Data, ifTag tag: String?) throws -> Bool
    /// Removes the file at `key`, if there is one.
    func delete(_ key: String) throws
    /// Copies the file at `key` into the local file `url`, in a stream.
    func download(_ key: String, to url: URL) throws

    /// Where a push keeps the files of the versions it adds until they are committed, keyed
    /// by `key` (the same for a push run again), outside every object; `nil` when the store
    /// cannot replace an object in one step (S3), so that a push writes into the object.
    func pushStagingFolder(for key: String) -> String?
    /// Replaces the object at `objectPath`, in one step, with itself plus the version
    /// folders staged in `staging` and `files` (paths in the object), if its inventory's tag
    /// is still `tag` (`nil`: there is no inventory); returns `false`, changing nothing, when
    /// it is not. Only for stores with a ``pushStagingFolder(for:)``.
    func replaceObject(
        at objectPath: String, stagedIn staging: String, adding files: [(path: String, data: Data)], ifTag tag: String?
    ) throws -> Bool
    /// Runs `body` while no push can replace the object at `objectPath`: a folder holds the
    /// object's lock, which ``replaceObject(at:stagedIn:adding:ifTag:)`` takes to compare
    /// and exchange. A store whose pushes write into the object (S3) just runs `body`.
    func holdingObjectLock<Value>(_ objectPath: String, _ body: () throws -> Value) throws -> Value
    /// Makes an empty remote a storage root with `files` (paths below the root, in the
    /// order to write them, the root's declaration last). A folder makes the root appear
    /// whole, in one rename; a bucket writes each file that is missing, in order.
    func createRoot(with files: [(path: String, data: Data)]) throws
    /// Removes the folder at `key` and everything below it.
    func removeFolder(_ key: String) throws
    /// Removes below `prefix` what killed writes left that is no file of the remote: their
    /// temporary files, and folders left empty. Stores without folders have nothing to do.
    func tidy(_ prefix: String) throws
    /// How many requests were tried again after failing in passing, so far (a command
    /// reports it); 0 for stores that never retry.
    var retries: Int { get }
}

extension RemoteStore {
    public func pushStagingFolder(for key: String) -> String? { nil }

    public func holdingObjectLock<Value>(_ objectPath: String, _ body: () throws -> Value) throws -> Value {
        try body()
    }

    public func replaceObject(
        at objectPath: String, stagedIn staging: String, adding files: [(path: String, data: Data)], ifTag tag: String?
    ) throws -> Bool {
        throw DocumentKitError(.unavailable, "cannot replace an object in one step", path: reported(objectPath))
    }

    public func createRoot(with files: [(path: String, data: Data)]) throws {
        try writeMissing(files)
    }

    /// Writes each of `files` that is not there yet, in order: of two first pushes, the
    /// second finds the first's files, which hold the same bytes.
    func writeMissing(_ files: [(path: String, data: Data)]) throws {
        for (path, data) in files {
            if try size(path) == nil { try write(path, data) }
        }
    }

    public func removeFolder(_ key: String) throws {
        for file in try list(prefix: key + "/").keys {
            try delete(file)
        }
    }

    public func tidy(_ prefix: String) throws {}

    public var retries: Int { 0 }
}

extension RemoteStore {
    public func readFile(_ path: String) throws -> Data {
        guard let file = try read(path) else {
            throw DocumentKitError(.missingInput, "no such file", path: reported(path))
        }
        return file.data
    }

    public func exists(_ path: String) throws -> Bool {
        try size(path) != nil
    }

    public func localFile(_ path: String, scratch: URL) throws -> URL {
        let url = scratch.appendingPathComponent(UUID().uuidString.lowercased())
        try download(path, to: url)
        return url
    }
}
