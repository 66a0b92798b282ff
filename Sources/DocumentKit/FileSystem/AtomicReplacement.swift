import Foundation

/// Writes a file the crash-safe way: a private temporary file beside the destination,
/// flushed, renamed over the destination, then the directory flushed.
///
/// The order is what makes it safe on power loss: the new bytes reach the disk (`fsync`
/// of the file) before the name points at them (`rename`), and the rename itself reaches
/// the disk (`fsync` of the directory) before the save reports success. At every moment
/// the destination's name refers to either the complete old file or the complete new one.
/// A temporary file is removed on every failure path; one left by a killed process is
/// named `.NAME.dk-XXXXXXXX.tmp` and removed by the next save of the same file.
final class AtomicReplacement {
    /// The destination; when links are followed, with any symbolic links resolved, so the
    /// save goes to the link's target.
    let destination: URL
    /// The temporary file being written.
    let file: OpenFile
    private var finished = false

    /// Starts a replacement of `destination` (which need not exist yet).
    ///
    /// - Parameter followingLinks: when `destination` is a symbolic link, write its target
    ///   (a bundle saved through a link stays a link), or, when `false`, replace the link
    ///   itself: what exports do, so that a link planted at the output cannot send the
    ///   bytes outside the folder the user named.
    init(destination requested: URL, followingLinks: Bool = true) throws {
        destination = followingLinks ? AtomicReplacement.resolvingSymbolicLinks(requested) : requested
        let directory = destination.deletingLastPathComponent().path
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw DocumentKitError(.cannotCreateOutput, "the folder does not exist", path: directory)
        }
        var attempt = 0
        while true {
            let name = ".\(destination.lastPathComponent).dk-\(AtomicReplacement.randomSuffix()).tmp"
            let path = (directory as NSString).appendingPathComponent(name)
            do {
                file = try OpenFile.creatingExclusively(path)
                break
            } catch let error as DocumentKitError {
                attempt += 1
                if access(path, F_OK) == 0, attempt < 16 { continue }
                throw DocumentKitError(.cannotCreateOutput, "cannot create a temporary file beside it: \(error.message)", path: destination.relativePath)
            }
        }
    }

    deinit {
        if !finished { unlink(file.path) }
    }

    /// Gives the new file `mode` (and, when running as root, the owner of the file it
    /// replaces), flushes it, renames it over the destination and flushes the directory.
    func commit(mode: mode_t, owner: (uid: uid_t, gid: gid_t)? = nil) throws {
        guard fchmod(file.descriptor, mode) == 0 else {
            throw DocumentKitError.system("cannot set permissions", path: file.path, errno: errno)
        }
        if let owner, owner.uid != geteuid() || owner.gid != getegid() {
            // Only root may give a file away; for anyone else the new file stays theirs.
            _ = fchown(file.descriptor, owner.uid, owner.gid)
        }
        try file.synchronize()
        guard rename(file.path, destination.path) == 0 else {
            throw DocumentKitError.system("cannot replace", path: destination.relativePath, errno: errno)
        }
        finished = true
        try AtomicReplacement.synchronizeDirectory(of: destination)
    }

    /// Like `commit`, but fails if the destination exists instead of replacing it:
    /// `link(2)` creates the name only if it is free, atomically.
    func commitWithoutReplacing(mode: mode_t) throws {
        guard fchmod(file.descriptor, mode) == 0 else {
            throw DocumentKitError.system("cannot set permissions", path: file.path, errno: errno)
        }
        try file.synchronize()
        guard link(file.path, destination.path) == 0 else {
            let number = errno
            if number == EEXIST {
                throw DocumentKitError(.cannotCreateOutput, "already exists (use --force to replace it)", path: destination.relativePath)
            }
            throw DocumentKitError.system("cannot create", path: destination.relativePath, errno: number)
        }
        unlink(file.path)
        finished = true
        try AtomicReplacement.synchronizeDirectory(of: destination)
    }

    /// The permissions a new file gets: 0666 less the process's umask, as `open(2)` would.
    static func defaultMode() -> mode_t {
        0o666 & ~currentUmask()
    }

    /// The process's umask. Reading it means setting it, so it is set straight back.
    static func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    /// Removes temporary files that an earlier, killed save of `destination` left behind.
    /// Call only while holding the destination's lock, so no living save owns them.
    static func removeLeftovers(of destination: URL) {
        let target = resolvingSymbolicLinks(destination)
        let directory = target.deletingLastPathComponent().path
        let prefix = ".\(target.lastPathComponent).dk-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink((directory as NSString).appendingPathComponent(name))
        }
    }

    static func synchronizeDirectory(of url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw DocumentKitError.system("cannot open folder", path: directory, errno: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw DocumentKitError.system("cannot flush folder", path: directory, errno: errno) }
    }

    /// Follows symbolic links at the end of `url` (up to 32), so that saving through a
    /// link writes the link's target and the link stays a link.
    static func resolvingSymbolicLinks(_ url: URL) -> URL {
        var current = url.standardizedFileURL
        for _ in 0..<32 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { break }
            current = target.hasPrefix("/")
                ? URL(fileURLWithPath: target)
                : current.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
        }
        return current
    }

    /// Eight random hex digits, for names of temporary files.
    static func randomSuffix() -> String {
        String(UInt32.random(in: 0...UInt32.max), radix: 16).leftPadded(to: 8)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
