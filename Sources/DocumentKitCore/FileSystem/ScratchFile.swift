import Foundation

/// A private file (0600) under a name of our choosing, for a program outside this one to
/// work on, such as the text editor of `docctl edit`. Closed between uses, since the other
/// program may replace it (editors often save by renaming a new file over the old one).
package struct ScratchFile {
    /// Where the file is.
    package let url: URL

    /// Creates `<prefix>-XXXXXXXX<suffix>` in `directory`, holding `contents`. The random
    /// part is chosen afresh until the name is free; the file is created exclusively and
    /// never through a symbolic link, so nobody sharing the folder (`/tmp`) can plant one.
    package init(in directory: URL, prefix: String, suffix: String, contents: Data) throws {
        var attempt = 0
        while true {
            let path = directory.appendingPathComponent("\(prefix)-\(AtomicReplacement.randomSuffix())\(suffix)").path
            let file: OpenFile
            do {
                file = try TemporaryRegistry.creating(path) { try OpenFile.creatingExclusively(path) }!
            } catch let error as DocumentKitError {
                attempt += 1
                if access(path, F_OK) == 0, attempt < 16 { continue }
                throw DocumentKitError(
                    .cannotCreateOutput, "cannot create a file to edit: \(error.message)", path: directory.path)
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

    /// The file's contents now, refused past `limit` bytes.
    package func read(limit: Int) throws -> Data {
        try OpenFile.forReading(url.path).readAll(limit: limit)
    }

    /// Replaces the file's contents with `contents`, keeping the file (and the permissions
    /// the editor may have given it).
    package func write(_ contents: Data) throws {
        let fd = SystemCall.open(url.path, O_WRONLY | O_TRUNC | O_NOFOLLOW)
        guard fd >= 0 else { throw DocumentKitError.system("cannot write", path: url.path, errno: errno) }
        defer { close(fd) }
        try DocumentKitError.located(at: url.path) {
            try contents.withUnsafeBytes { try POSIXFile.write(fd, $0, at: 0, path: url.path) }
        }
    }

    /// Deletes the file; one already gone is fine.
    package func remove() {
        unlink(url.path)
    }
}
