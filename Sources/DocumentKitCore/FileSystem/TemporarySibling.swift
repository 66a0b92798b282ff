import Foundation

/// The temporary files and folders a write makes beside its output, and the removal of
/// those that killed writers left behind.
///
/// A temporary of the output `NAME` is `.NAME.dk-XXXXXXXX.tmp` (random hex digits) in the
/// output's folder, created private to its creator (a file 0600, a folder 0700, whatever
/// the umask) and held under an exclusive `flock` for as long as it is in use. The lock is
/// what makes cleaning up safe without any other lock: a later writer of the same output
/// removes every temporary of that name it can lock, and only one whose creator has exited
/// (killed, crashed, or lost with the machine) can be locked, never one that a running
/// writer is still filling. So exports, imports and new bundles, which have no bundle to
/// lock, clean up after themselves the way saves do.
package enum TemporarySibling {
    /// How a temporary's name ends.
    package static let suffix = ".tmp"

    /// How the name of a temporary of `destinationName` starts: `.NAME.dk-`.
    package static func prefix(of destinationName: String) -> String {
        ".\(destinationName).dk-"
    }

    /// Creates a locked temporary file for `destinationName` in `folder`. Errors name
    /// `reportedPath`, the output as the caller knows it.
    package static func file(for destinationName: String, in folder: OpenFile, reportedPath: String) throws -> (
        name: String, file: OpenFile
    ) {
        try create(for: destinationName, reportedPath: reportedPath, what: "a temporary file") { name in
            let path = (folder.path as NSString).appendingPathComponent(name)
            return TemporaryRegistry.creating(path) {
                let fd = openat(folder.descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                return fd >= 0 ? OpenFile(adopting: fd, path: path) : nil
            }
        }
    }

    /// Creates a temporary folder for `destinationName` in `folder`; it stays locked while
    /// the returned descriptor is open.
    package static func folder(for destinationName: String, in folder: OpenFile, reportedPath: String) throws -> (
        name: String, file: OpenFile
    ) {
        try create(for: destinationName, reportedPath: reportedPath, what: "a temporary folder") { name in
            let path = (folder.path as NSString).appendingPathComponent(name)
            return TemporaryRegistry.creating(path) {
                guard mkdirat(folder.descriptor, name, 0o700) == 0 else { return nil }
                let fd = openat(folder.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                guard fd >= 0 else {
                    let number = errno
                    unlinkat(folder.descriptor, name, AT_REMOVEDIR)
                    errno = number
                    return nil
                }
                return OpenFile(adopting: fd, path: path)
            }
        }
    }

    /// Removes the temporaries of `destinationName` in `folder` that no running writer
    /// holds: files and whole folders.
    package static func removeLeftovers(of destinationName: String, in folder: OpenFile) {
        let prefix = prefix(of: destinationName)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        var destination = stat()
        let hasDestination = fstatat(folder.descriptor, destinationName, &destination, AT_SYMLINK_NOFOLLOW) == 0
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(suffix) {
            var sibling = stat()
            if hasDestination, fstatat(folder.descriptor, name, &sibling, AT_SYMLINK_NOFOLLOW) == 0,
                sibling.st_ino == destination.st_ino, sibling.st_dev == destination.st_dev
            {
                // A second name of the output itself: a new file killed between `link` and
                // `unlink`. Removing the name loses nothing, and its lock may be the output's.
                unlinkat(folder.descriptor, name, 0)
                continue
            }
            let fd = openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            let leftover = OpenFile(adopting: fd, path: (folder.path as NSString).appendingPathComponent(name))
            guard leftover.tryLock(), let opened = try? leftover.status() else { continue }
            // Still the file this name refers to (not one renamed into place after it was opened)?
            var named = stat()
            guard fstatat(folder.descriptor, name, &named, AT_SYMLINK_NOFOLLOW) == 0,
                named.st_ino == opened.st_ino, named.st_dev == opened.st_dev
            else { continue }
            if (opened.st_mode & S_IFMT) == S_IFDIR {
                try? FileManager.default.removeItem(atPath: leftover.path)
            } else {
                unlinkat(folder.descriptor, name, 0)
            }
        }
    }

    /// Makes a fresh name until `make` creates it (`nil` and `errno` otherwise), then locks
    /// it. A cleaner that locked the new name first is removing it: start again.
    private static func create(
        for destinationName: String, reportedPath: String, what: String,
        _ make: (String) -> OpenFile?
    ) throws -> (name: String, file: OpenFile) {
        for _ in 0..<16 {
            let name = "\(prefix(of: destinationName))\(AtomicReplacement.randomSuffix())\(suffix)"
            guard let created = make(name) else {
                if errno == EEXIST { continue }
                throw creationError("cannot create \(what) beside it", path: reportedPath, errno: errno)
            }
            if created.tryLock(), let status = try? created.status(), status.st_nlink > 0 {
                return (name, created)
            }
        }
        throw DocumentKitError(
            .cannotCreateOutput, "cannot create \(what) beside it: every name tried was taken", path: reportedPath)
    }

    /// The error for a file or folder that could not be created in an output's folder:
    /// one that no longer exists (removed meanwhile) is an output that cannot be created
    /// (73), like one the folder refuses; a full disk is an I/O error (74).
    package static func creationError(_ operation: String, path: String, errno number: Int32) -> DocumentKitError {
        switch number {
        case ENOENT, ENOTDIR:
            DocumentKitError(.cannotCreateOutput, "\(operation): its folder no longer exists", path: path)
        default:
            DocumentKitError.system(operation, path: path, errno: number)
        }
    }
}
