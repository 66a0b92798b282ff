import DocumentKit
import Foundation

/// A remote whose every write first counts a step of ``KillSwitch``: what
/// `DOCUMENTKIT_KILL_AFTER_REMOTE_WRITES` puts between a command and its remote, so that
/// tests can kill a push after each of its writes in turn.
struct CountedRemoteStore: RemoteStore {
    let base: any RemoteStore

    var displayPath: String { base.displayPath }
    var retries: Int { base.retries }
    func read(_ key: String) throws -> (data: Data, tag: String)? { try base.read(key) }
    func size(_ key: String) throws -> UInt64? { try base.size(key) }
    func list(prefix: String) throws -> [String: UInt64] { try base.list(prefix: prefix) }
    func download(_ key: String, to url: URL) throws { try base.download(key, to: url) }
    func flush() throws { try base.flush() }
    func pushStagingFolder(for key: String) -> String? { base.pushStagingFolder(for: key) }

    func write(_ key: String, _ data: Data) throws {
        KillSwitch.step()
        try base.write(key, data)
    }

    func upload(_ key: String, from file: FileWrapper, size: UInt64) throws -> UInt64 {
        KillSwitch.step()
        return try base.upload(key, from: file, size: size)
    }

    func replace(_ key: String, with data: Data, ifTag tag: String?) throws -> Bool {
        KillSwitch.step()
        return try base.replace(key, with: data, ifTag: tag)
    }

    func delete(_ key: String) throws {
        KillSwitch.step()
        try base.delete(key)
    }

    func replaceObject(at objectPath: String, stagedIn staging: String, adding files: [(path: String, data: Data)], ifTag tag: String?) throws -> Bool {
        KillSwitch.step()
        return try base.replaceObject(at: objectPath, stagedIn: staging, adding: files, ifTag: tag)
    }

    func removeFolder(_ key: String) throws {
        KillSwitch.step()
        try base.removeFolder(key)
    }

    func tidy(_ prefix: String) throws {
        KillSwitch.step()
        try base.tidy(prefix)
    }
}
