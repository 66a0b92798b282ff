import Foundation

/// A private file (0600) under a name of our choosing, for a program outside this one to
/// work on, such as the text editor of `docctl edit`. Closed between uses, since the other
/// program may replace it (editors often save by renaming a new file over the old one).
struct ScratchFile {
    /// Where the file is.
    let url: URL
    /// The largest file `read` accepts: what a document may be.
    private static let readLimit = Int(BundleLimits.default.maxInMemoryObjectBytes)

    /// Creates `<prefix>-XXXXXXXX<suffix>` in `directory`, holding `contents`. The random
    /// part is chosen afresh until the name is free; the file is created exclusively and
    /// never through a symbolic link, so nobody sharing the folder (`/tmp`) can plant one.
    init(in directory: URL, prefix: String, suffix: String, contents: Data) throws {
        var attempt = 0
        while true {
            let path = directory.appendingPathComponent("\(prefix)-\(AtomicReplacement.randomSuffix())\(suffix)").path
            let file: OpenFile
            do {
                file = try OpenFile.creatingExclusively(path)
            } catch let error as DocumentKitError {
                attempt += 1
                if access(path, F_OK) == 0, attempt < 16 { continue }
                throw DocumentKitError(.cannotCreateOutput, "cannot create a file to edit: \(error.message)", path: directory.path)
            }
            do {
                try file.write(contents)
            } catch {
                unlink(path)
                throw error
            }
            url = URL(fileURLWithPath: path)
            return
        }
    }

    /// The file's contents now.
    func read() throws -> Data {
        try OpenFile.forReading(url.path).readAll(limit: Self.readLimit)
    }

    /// Replaces the file's contents with `contents`, keeping the file (and the permissions
    /// the editor may have given it).
    func write(_ contents: Data) throws {
        let fd = open(url.path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw DocumentKitError.system("cannot write", path: url.path, errno: errno) }
        defer { close(fd) }
        do {
            try contents.withUnsafeBytes { try POSIXFile.write(fd, $0, at: 0, path: url.path) }
        } catch let error as ArchiveError {
            throw DocumentKitError(error)
        }
    }

    /// Deletes the file; one already gone is fine.
    func remove() {
        unlink(url.path)
    }
}
