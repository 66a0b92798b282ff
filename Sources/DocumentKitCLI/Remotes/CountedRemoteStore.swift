import DocumentKit
import Foundation

/// A remote whose every write is counted: first a step of ``KillSwitch`` (armed by
/// `DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES`, so that tests can kill a push after each of its
/// writes in turn), then, once done, a note for ``Interruption`` that the remote has part of
/// what the command sends. Every remote docctl opens is one.
struct CountedRemoteStore: RemoteStore {
    let base: any RemoteStore

    /// Runs one write of the remote's, counted.
    private func counted<T>(_ write: () throws -> T) rethrows -> T {
        KillSwitch.step()
        let result = try write()
        Interruption.noteRemoteWrite(base.displayPath)
        return result
    }

    /// `store`, counted: every writer of a root (push, archive) opens its store through this.
    static func counting(_ store: any RemoteStore) -> any RemoteStore {
        CountedRemoteStore(base: store)
    }

    var displayPath: String { base.displayPath }
    var retries: Int { base.retries }
    func read(_ key: String) throws -> (data: Data, tag: String)? { try base.read(key) }
    func size(_ key: String) throws -> UInt64? { try base.size(key) }
    func list(prefix: String) throws -> [String: UInt64] { try base.list(prefix: prefix) }
    func download(_ key: String, to url: URL) throws { try base.download(key, to: url) }
    func flush() throws { try base.flush() }
    func pushStagingFolder(for key: String) -> String? { base.pushStagingFolder(for: key) }

    func write(_ key: String, _ data: Data) throws {
        try counted { try base.write(key, data) }
    }

    func upload(_ key: String, from file: FileWrapper, size: UInt64) throws -> UInt64 {
        try counted { try base.upload(key, from: file, size: size) }
    }

    func replace(_ key: String, with data: Data, ifTag tag: String?) throws -> Bool {
        try counted { try base.replace(key, with: data, ifTag: tag) }
    }

    func delete(_ key: String) throws {
        try counted { try base.delete(key) }
    }

    func replaceObject(
        at objectPath: String, stagedIn staging: String, adding files: [(path: String, data: Data)], ifTag tag: String?
    ) throws -> Bool {
        try counted { try base.replaceObject(at: objectPath, stagedIn: staging, adding: files, ifTag: tag) }
    }

    /// A root made is already part of what was sent: a signal during the writes that
    /// follow, while none of them has finished, must not report it as a finished output.
    func createRoot(with files: [(path: String, data: Data)]) throws {
        try counted { try base.createRoot(with: files) }
    }

    func removeFolder(_ key: String) throws {
        try counted { try base.removeFolder(key) }
    }

    func tidy(_ prefix: String) throws {
        try counted { try base.tidy(prefix) }
    }
}
