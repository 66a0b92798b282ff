import Foundation

/// How a folder remote's storage root comes to be: whole, in one rename. The declaration
/// files are written into a temporary folder beside the root (``StagingFolder``, which the
/// next writer removes when a killed push left it), flushed, and renamed to the root's
/// name (over an empty folder, which a rename replaces); so a reader finds no root, or an
/// empty folder, or a whole root, never a root without its declaration or its layout. The
/// first object then appears in one rename too (``replaceObject(at:stagedIn:adding:ifTag:)``).
extension FolderRemoteStore {
    public func createRoot(with files: [(path: String, data: Data)]) throws {
        // Where the root cannot be renamed into place (a folder of its name that is not
        // empty, a mount point, a parent this user may not write), the files are written
        // one by one, the declaration last, and a failure names what is wrong.
        if (try? createRootInOneStep(files)) == true { return }
        try makeRootFolder()
        try writeMissing(files)
    }

    /// Builds the root beside itself (``StagingFolder``) and renames it into place, over
    /// an empty folder of the root's name; whether it did.
    private func createRootInOneStep(_ files: [(path: String, data: Data)]) throws -> Bool {
        let target = root.standardizedFileURL
        guard ![".", "..", "/", ""].contains(target.lastPathComponent) else { return false }
        try FileTree.makeFolders(target.deletingLastPathComponent())
        let staging = try StagingFolder(beside: target)
        let store = FolderRemoteStore(root: staging.url)
        for (path, data) in files {
            try store.write(path, data)
        }
        try store.flush()
        try staging.moveIntoPlace(mode: 0o777 & ~AtomicReplacement.currentUmask(), replace: false)
        return true
    }

    /// Creates the root's folder, naming the root when it cannot be.
    private func makeRootFolder() throws {
        do {
            try FileTree.makeFolders(root)
        } catch {
            throw DocumentKitError.system("cannot create the folder", path: displayPath, error: error)
        }
    }
}
