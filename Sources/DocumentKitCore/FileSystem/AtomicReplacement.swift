import Foundation

/// Writes a file the crash-safe way: a private temporary file beside the destination,
/// flushed, renamed over the destination, then the directory flushed.
///
/// The order is what makes it safe on power loss: the new bytes and their final mode reach
/// the disk (`fsync` of the file) before the name points at them (`rename`), and the rename
/// itself reaches the disk (`fsync` of the directory) before the save reports success
/// (FORMAT.md §8 says why each step is needed). At every moment the destination's name
/// refers to either the complete old file or the complete new one.
///
/// The temporary file is `.NAME.dk-XXXXXXXX.tmp`, 0600 and locked while it lives
/// (``TemporarySibling``); it is removed on every failure path, and one left by a killed
/// process is removed by the next write of the same destination. The folder is used by
/// descriptor, so the file is created, renamed and removed in the same folder even if that
/// folder is renamed while the write runs.
package final class AtomicReplacement {
    /// The destination; when links are followed, with any symbolic links resolved, so the
    /// save goes to the link's target.
    package let destination: URL
    /// The temporary file being written.
    package let file: OpenFile
    /// The destination's folder.
    private let folder: OpenFile
    /// The temporary file's name in `folder`.
    private let temporaryName: String
    /// The destination as the caller named it, for messages.
    private let reportedPath: String
    private var finished = false

    /// Starts a replacement of `destination` (which need not exist yet).
    ///
    /// - Parameter followingLinks: when `destination` is a symbolic link, write its target
    ///   (a bundle saved through a link stays a link), or, when `false`, replace the link
    ///   itself: what exports do, so that a link planted at the output cannot send the
    ///   bytes outside the folder the user named.
    package init(destination requested: URL, followingLinks: Bool = true) throws {
        destination = followingLinks ? AtomicReplacement.resolvingSymbolicLinks(requested) : requested
        reportedPath = requested.relativePath
        folder = try AtomicReplacement.openFolder(of: destination, reportedPath: reportedPath)
        TemporarySibling.removeLeftovers(of: destination.lastPathComponent, in: folder)
        (temporaryName, file) = try TemporarySibling.file(
            for: destination.lastPathComponent, in: folder, reportedPath: reportedPath)
    }

    /// The temporary file, complete once its writer is done: a caller may check it there
    /// before ``commit(mode:owner:flushing:)`` gives it the destination's name.
    package var temporaryURL: URL {
        destination.deletingLastPathComponent().appendingPathComponent(temporaryName)
    }

    deinit {
        if !finished { unlinkat(folder.descriptor, temporaryName, 0) }
    }

    /// Flushes the new file, gives it `mode` (and, when allowed, the owner of the file it
    /// replaces), renames it over the destination and flushes the directory. With
    /// `flushing` false it only renames: for a writer of many files that flushes them all
    /// at once (``SystemCall/synchronizeFileSystem(of:)``) before anything names them.
    package func commit(mode: mode_t, owner: (uid: uid_t, gid: gid_t)? = nil, flushing: Bool = true) throws {
        try flushThenSetAttributes(mode: mode, owner: owner, flushing: flushing)
        guard renameat(folder.descriptor, temporaryName, folder.descriptor, destination.lastPathComponent) == 0 else {
            throw TemporarySibling.creationError("cannot replace it", path: reportedPath, errno: errno)
        }
        finished = true
        Interruption.noteWritten(reportedPath)
        file.unlock()
        if flushing { try synchronizeFolder() }
    }

    /// Like `commit`, but fails if the destination exists instead of replacing it:
    /// `link(2)` creates the name only if it is free, atomically.
    package func commitWithoutReplacing(mode: mode_t) throws {
        try flushThenSetAttributes(mode: mode, owner: nil, flushing: true)
        guard linkat(folder.descriptor, temporaryName, folder.descriptor, destination.lastPathComponent, 0) == 0 else {
            let number = errno
            if number == EEXIST {
                throw DocumentKitError.outputExists(reportedPath)
            }
            throw TemporarySibling.creationError("cannot create it", path: reportedPath, errno: number)
        }
        unlinkat(folder.descriptor, temporaryName, 0)
        finished = true
        Interruption.noteWritten(reportedPath)
        file.unlock()
        try synchronizeFolder()
    }

    /// Flushes the file's bytes, then gives it its mode and owner, then flushes that
    /// change: the file stays private while its bytes go to the disk, which for a large
    /// bundle is most of the commit, and takes its final mode just before its name.
    private func flushThenSetAttributes(mode: mode_t, owner: (uid: uid_t, gid: gid_t)?, flushing: Bool) throws {
        if flushing { try file.synchronize() }
        try setAttributes(mode: mode, owner: owner)
        if flushing { try file.synchronize() }
    }

    /// The owner first, then the mode: changing a file's owner clears its set-user-ID and
    /// set-group-ID bits, so the other order would lose them.
    private func setAttributes(mode: mode_t, owner: (uid: uid_t, gid: gid_t)?) throws {
        if let owner, owner.uid != geteuid() || owner.gid != getegid() {
            // Only root may give a file away; anyone may give it a group they belong to.
            // What cannot be kept stays the writer's.
            if fchown(file.descriptor, owner.uid, owner.gid) != 0, owner.gid != getegid() {
                _ = fchown(file.descriptor, uid_t.max, owner.gid)
            }
        }
        guard fchmod(file.descriptor, mode) == 0 else {
            throw DocumentKitError.system("cannot set permissions", path: reportedPath, errno: errno)
        }
    }

    private func synchronizeFolder() throws {
        guard fsync(folder.descriptor) == 0 else {
            throw DocumentKitError.system("cannot flush its folder", path: reportedPath, errno: errno)
        }
    }

    /// Opens the folder `destination` (resolved) goes in; one that does not exist means
    /// the output cannot be created (73).
    package static func openFolder(of destination: URL, reportedPath: String) throws -> OpenFile {
        let path = destination.deletingLastPathComponent().path
        let fd = SystemCall.open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else {
            switch errno {
            case ENOENT:
                throw DocumentKitError(
                    .cannotCreateOutput, "cannot create it: its folder does not exist", path: reportedPath)
            case ENOTDIR:
                throw DocumentKitError(
                    .cannotCreateOutput, "cannot create it: its folder is not a folder", path: reportedPath)
            default: throw DocumentKitError.system("cannot open its folder", path: reportedPath, errno: errno)
            }
        }
        return OpenFile(adopting: fd, path: path)
    }

    /// The permissions a new file gets: 0666 less the process's umask, as `open(2)` would.
    package static func defaultMode() -> mode_t {
        0o666 & ~currentUmask()
    }

    /// The process's umask. Reading it means setting it, so it is set straight back.
    package static func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    /// Removes temporary files and folders that earlier, killed writes of `destination`
    /// left behind (``TemporarySibling``): any writer of `destination` may call it, at any
    /// time, since a temporary still in use is locked and kept.
    package static func removeLeftovers(of destination: URL) {
        let target = resolvingSymbolicLinks(destination)
        guard let folder = try? OpenFile.folder(target.deletingLastPathComponent().path) else { return }
        TemporarySibling.removeLeftovers(of: target.lastPathComponent, in: folder)
    }

    /// Follows symbolic links at the end of `url` (up to 32), so that saving through a
    /// link writes the link's target and the link stays a link.
    package static func resolvingSymbolicLinks(_ url: URL) -> URL {
        var current = url.standardizedFileURL
        for _ in 0..<32 {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { break }
            current =
                target.hasPrefix("/")
                ? URL(fileURLWithPath: target)
                : current.deletingLastPathComponent().appendingPathComponent(target).standardizedFileURL
        }
        return current
    }

    /// Eight random hex digits, for names of temporary files.
    package static func randomSuffix() -> String {
        String(UInt32.random(in: 0...UInt32.max), radix: 16).leftPadded(to: 8)
    }
}

extension String {
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

extension AtomicReplacement {
    /// Refuses (`cannotCreateOutput`) an output that is there already, as a file, a folder
    /// or a link (even one that leads nowhere), unless `replace`: the one check every
    /// command that creates an output makes before it reads or writes anything.
    package static func refuseExisting(_ output: URL, replace: Bool) throws {
        guard !replace, SystemCall.linkStatus(output.path) != nil else { return }
        throw DocumentKitError.outputExists(output.relativePath)
    }
}

extension AtomicReplacement {
    /// Refuses (`cannotCreateOutput`) to save over a regular file whose owner may not write
    /// it (`chmod 444`): a save replaces the file by a rename in its folder, which the
    /// file's own mode does not stop, and root passes every permission check, so the owner's
    /// write bit is asked, as the user who set it expects. Links are followed, as saves do.
    package static func refuseReadOnly(_ url: URL) throws {
        guard let info = SystemCall.status(resolvingSymbolicLinks(url).path),
            (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & S_IWUSR == 0
        else { return }
        throw DocumentKitError(
            .cannotCreateOutput,
            """
            \(SystemError.message("cannot write", errno: EACCES)) (it is read-only, mode \
            \(String(info.st_mode & 0o777, radix: 8))); nothing was written
            """,
            path: url.relativePath)
    }
}

extension DocumentKitError {
    /// `PATH: already exists`, which replacing the output would get past.
    package static func outputExists(_ path: String) -> DocumentKitError {
        DocumentKitError(.cannotCreateOutput, "already exists", path: path, remedy: .replaceOutput)
    }
}
