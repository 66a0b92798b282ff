import Foundation

/// A private folder beside an output, `.NAME.dk-XXXXXXXX.tmp` (0700, locked while it is in
/// use: see ``TemporarySibling``), for files that are not ready to be seen: what an import
/// extracts, or an export before it appears in one rename. Removed with everything in it
/// when released, unless it was moved into place.
package final class StagingFolder {
    /// Where the folder is.
    package let url: URL
    /// The output as the caller named it: errors of writing here name it, not the staging path.
    package let reportedPath: String
    private let output: URL
    private let parent: OpenFile
    private let name: String
    /// Open for as long as the folder is in use: its lock keeps other writers' clean-ups away.
    private let lock: OpenFile
    private var movedIntoPlace = false

    /// Creates the folder beside `output`, first removing what killed writers of `output` left.
    package init(beside output: URL) throws {
        self.output = output
        reportedPath = output.relativePath
        parent = try AtomicReplacement.openFolder(of: output, reportedPath: reportedPath)
        TemporarySibling.removeLeftovers(of: output.lastPathComponent, in: parent)
        (name, lock) = try TemporarySibling.folder(
            for: output.lastPathComponent, in: parent, reportedPath: reportedPath)
        url = URL(fileURLWithPath: lock.path, isDirectory: true)
    }

    deinit {
        if !movedIntoPlace { try? FileManager.default.removeItem(at: url) }
    }

    /// Runs `body`, which writes into the folder; its errors about files in here (a full
    /// disk) name the output, with the file's path inside the folder as their location.
    package func writing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch var error as DocumentKitError {
            guard let path = error.path, path.hasPrefix(url.path + "/") || path == url.path else { throw error }
            // A file of ours that is missing means the folder was removed under us: the
            // output cannot be made, which is not a missing input.
            if error.code == .missingInput {
                throw DocumentKitError(.cannotCreateOutput, "its folder no longer exists", path: reportedPath)
            }
            error.path = reportedPath
            if error.location == nil, path != url.path { error.location = String(path.dropFirst(url.path.count + 1)) }
            throw error
        }
    }

    /// Flushes the folder and every folder below it, so that what it lists is on disk
    /// before the rename that publishes it can be (as a file's bytes are before its rename).
    package func synchronize(subfolders: [String]) throws {
        for subfolder in subfolders.reversed() + [""] {
            let path = subfolder.isEmpty ? url.path : url.appendingPathComponent(subfolder).path
            try writing { try OpenFile.folder(path).synchronize() }
        }
    }

    /// Renames the folder to the output's name, in one step, and flushes the parent folder.
    /// With `replace`, an existing output is first moved aside (to a name of the same
    /// pattern, so that if this process dies a later write removes it) and deleted after.
    package func moveIntoPlace(mode: mode_t, replace: Bool) throws {
        guard fchmod(lock.descriptor, mode) == 0 else {
            throw DocumentKitError.system("cannot set permissions", path: reportedPath, errno: errno)
        }
        let outputName = output.lastPathComponent
        var displaced: (name: String, lock: OpenFile?)?
        var existing = stat()
        if replace, fstatat(parent.descriptor, outputName, &existing, AT_SYMLINK_NOFOLLOW) == 0 {
            // Locked (when it can be opened) so that no clean-up removes it while it is aside.
            let fd = openat(parent.descriptor, outputName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            let old = fd >= 0 ? OpenFile(adopting: fd, path: output.path) : nil
            _ = old?.tryLock()
            let prefix = TemporarySibling.prefix(of: outputName)
            let aside = "\(prefix)old-\(AtomicReplacement.randomSuffix())\(TemporarySibling.suffix)"
            guard renameat(parent.descriptor, outputName, parent.descriptor, aside) == 0 else {
                throw DocumentKitError.system("cannot replace it", path: reportedPath, errno: errno)
            }
            displaced = (aside, old)
        }
        guard renameat(parent.descriptor, name, parent.descriptor, outputName) == 0 else {
            let number = errno
            if let displaced { renameat(parent.descriptor, displaced.name, parent.descriptor, outputName) }
            if [EEXIST, ENOTEMPTY, ENOTDIR, EISDIR].contains(number),
                faccessat(parent.descriptor, outputName, F_OK, AT_SYMLINK_NOFOLLOW) == 0
            {
                throw DocumentKitError.outputExists(reportedPath)
            }
            throw TemporarySibling.creationError("cannot create it", path: reportedPath, errno: number)
        }
        movedIntoPlace = true
        Interruption.noteWritten(reportedPath)
        lock.unlock()
        if let displaced {
            try? FileManager.default.removeItem(
                atPath: (parent.path as NSString).appendingPathComponent(displaced.name))
        }
        guard fsync(parent.descriptor) == 0 else {
            throw DocumentKitError.system("cannot flush its folder", path: reportedPath, errno: errno)
        }
    }
}
