import Foundation

/// One writer at a time: an advisory `flock(2)` on the bundle file itself.
///
/// A save replaces the file with a new inode, so a lock on the old inode means nothing
/// once the rename is done. After taking the lock the holder therefore checks that the
/// path still names the inode it locked, and starts again if not. Readers take no lock:
/// a rewrite's rename makes every reader see either the old file or the new one, and
/// while an in-place append runs they read the zip its journal locates.
final class BundleLock {
    /// The locked file (the bundle, open for reading).
    let file: OpenFile

    private init(file: OpenFile) { self.file = file }

    deinit { flock(file.descriptor, LOCK_UN) }

    /// Waits up to `timeout` seconds for the lock on the existing bundle at `url`.
    static func acquire(_ url: URL, timeout: TimeInterval = BundleLock.defaultTimeout) throws -> BundleLock {
        let path = AtomicReplacement.resolvingSymbolicLinks(url).path
        let deadline = Date().addingTimeInterval(timeout)
        var pause: useconds_t = 1_000
        while true {
            let file: OpenFile
            do {
                file = try OpenFile.forReading(path)
            } catch var error as DocumentKitError {
                error.path = url.relativePath
                throw error
            }
            if flock(file.descriptor, LOCK_EX | LOCK_NB) == 0 {
                var current = stat()
                let opened = try file.status()
                if stat(path, &current) == 0, current.st_ino == opened.st_ino, current.st_dev == opened.st_dev {
                    return BundleLock(file: file)
                }
                // Replaced while we waited: lock the new file instead.
                continue
            }
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw DocumentKitError.system("cannot lock", path: url.relativePath, errno: errno)
            }
            if Date() >= deadline {
                throw DocumentKitError(.conflict, "locked by another writer for more than \(Int(timeout)) s", path: url.relativePath)
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// How long a writer waits for another: `DOCUMENTKIT_LOCK_TIMEOUT` seconds, else 30.
    static var defaultTimeout: TimeInterval {
        ProcessInfo.processInfo.environment["DOCUMENTKIT_LOCK_TIMEOUT"].flatMap(TimeInterval.init) ?? 30
    }
}
