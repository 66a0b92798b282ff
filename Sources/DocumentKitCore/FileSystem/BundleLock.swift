import Foundation

/// One writer at a time: an advisory `flock(2)` on the bundle file itself.
///
/// A save replaces the file with a new inode, so a lock on the old inode means nothing
/// once the rename is done. After taking the lock the holder therefore checks that the
/// path still names the inode it locked, and starts again if not. Readers take no lock:
/// a rewrite's rename makes every reader see either the old file or the new one, and
/// while an in-place append runs they read the zip its journal locates.
package final class BundleLock {
    /// The locked file (the bundle, open for reading).
    package let file: OpenFile

    private init(file: OpenFile) { self.file = file }

    deinit { flock(file.descriptor, LOCK_UN) }

    /// Takes the lock on the existing bundle at `url`, waiting for other writers as long as
    /// they take, or at most `timeout` seconds when one is given.
    ///
    /// Waiting is what a writer asked to save wants: `docctl set` run from several scripts
    /// at once should land every edit, however long the queue, not fail because a busy
    /// machine made the others slow. Without a timeout the kernel queues the waiter
    /// (`flock` without `LOCK_NB`) and wakes it when the lock is free; with one, the wait
    /// polls against the monotonic clock, which wall-clock changes do not move.
    ///
    /// A writer that has waited a second tells `observer`, once, who holds the lock.
    package static func acquire(_ url: URL, timeout: TimeInterval?, observer: WaitObserver?) throws -> BundleLock {
        let path = AtomicReplacement.resolvingSymbolicLinks(url).path
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = timeout.map { started.advanced(by: .seconds(min(max(0, $0), 1e9))) }
        // Until the observer has been told, the wait polls (as with a timeout), so that it
        // can be told after a second; then a wait without a limit blocks in the kernel.
        var observer = observer
        var pause: useconds_t = 1_000
        while true {
            let file: OpenFile
            do {
                file = try OpenFile.forReading(path)
            } catch var error as DocumentKitError {
                error.path = url.relativePath
                throw error
            }
            if flock(file.descriptor, deadline == nil && observer == nil ? LOCK_EX : LOCK_EX | LOCK_NB) == 0 {
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
            if let notify = observer, clock.now - started >= .seconds(1) {
                observer = nil
                notify(url.relativePath, (try? file.status()).flatMap(LockHolder.of))
            }
            guard let deadline else {
                if observer != nil {
                    usleep(pause)
                    pause = min(pause * 2, 50_000)
                }
                continue
            }
            if clock.now >= deadline {
                throw DocumentKitError(
                    .conflict, "locked by another writer for more than \(String(format: "%g", timeout ?? 0)) s",
                    path: url.relativePath)
            }
            usleep(pause)
            pause = min(pause * 2, 50_000)
        }
    }

    /// What a writer that has waited a second for the lock on the bundle (named as the
    /// caller named it) calls, once, with the holder when it is known.
    package typealias WaitObserver = @Sendable (_ bundle: String, _ holder: LockHolder?) -> Void
}
