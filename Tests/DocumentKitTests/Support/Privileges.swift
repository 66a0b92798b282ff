import Foundation
import Testing

/// What the tests may do to the file system beyond creating files: mount a small tmpfs,
/// make a folder immutable, give a file away. CI runs as root, where all of these work;
/// elsewhere the tests that need them are skipped, saying why.
enum Privileges {
    /// Whether the tests run as root.
    static let isRoot = geteuid() == 0

    /// Whether a tmpfs can be mounted (root, and a mount namespace that allows it), tried once.
    static let canMount: Bool = {
        guard isRoot, let directory = try? TemporaryDirectory("mount-probe") else { return false }
        return (try? ScratchMount(in: directory, bytes: 1 << 20)) != nil
    }()

    /// Whether `chattr +i` works on folders here (root, on a file system with the flag), tried once.
    static let canMakeImmutable: Bool = {
        guard isRoot, let directory = try? TemporaryDirectory("chattr-probe") else { return false }
        return (try? ImmutableFolder(directory.url, in: directory)) != nil
    }()
}

/// A tmpfs of a fixed size mounted on a folder, unmounted when released: a file system
/// that fills up, or that can be made read-only, for one test.
final class ScratchMount {
    /// The mounted folder.
    let url: URL
    /// Kept until the mount is gone, so the folder is removed only once it is unmounted.
    private let directory: TemporaryDirectory

    /// Mounts a tmpfs of `bytes` on a new folder `name` in `directory`.
    init(in directory: TemporaryDirectory, name: String = "mnt", bytes: Int) throws {
        self.directory = directory
        url = directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try Self.mount(["-t", "tmpfs", "-o", "size=\(bytes),mode=0755", "tmpfs", url.path])
    }

    deinit {
        // Lazily, so that a process still holding a file there does not keep it mounted.
        _ = try? ExternalTool(name: "umount").run(["-l", url.path])
    }

    /// Makes the file system read-only: nothing on it can be created, written or removed.
    func makeReadOnly() throws {
        try Self.mount(["-o", "remount,ro", url.path])
    }

    /// Bytes still free for files.
    var freeBytes: Int {
        var info = statvfs()
        statvfs(url.path, &info)
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Fills the file system with a file until `leaving` bytes remain free (pages of 4 KiB).
    func fill(leaving: Int) throws {
        let filler = url.appendingPathComponent("filler")
        let size = freeBytes - leaving
        guard size > 0 else { return }
        try Data(count: size).write(to: filler)
    }

    private static func mount(_ arguments: [String]) throws {
        let result = try ExternalTool(name: "mount").run(arguments)
        guard result.status == 0 else {
            throw CocoaError(
                .fileWriteNoPermission,
                userInfo: [NSLocalizedDescriptionKey: "mount \(arguments): \(result.standardError)"])
        }
    }
}

/// A folder made immutable with `chattr +i`: nothing can be created, renamed or removed in
/// it, even by root, while the files already in it can still be written. Made mutable again
/// when released.
final class ImmutableFolder {
    let url: URL
    /// Kept until the folder is mutable again, so that it can then be removed.
    private let directory: TemporaryDirectory

    /// Makes `url`, `directory` or a folder in it, immutable.
    init(_ url: URL, in directory: TemporaryDirectory) throws {
        self.url = url
        self.directory = directory
        let result = try ExternalTool(name: "chattr").run(["+i", url.path])
        guard result.status == 0 else {
            throw CocoaError(
                .fileWriteNoPermission, userInfo: [NSLocalizedDescriptionKey: "chattr: \(result.standardError)"])
        }
    }

    deinit {
        _ = try? ExternalTool(name: "chattr").run(["-i", url.path])
    }
}
