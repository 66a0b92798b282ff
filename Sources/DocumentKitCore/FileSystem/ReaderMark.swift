#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The mark a reader holds on a bundle file for as long as it has it open, saying which
/// central directory it read, so that a save in place knows whether someone may still
/// read one older than the directory it appends after (FORMAT.md §12.4, "The document's
/// slot").
///
/// A save writes `document.json` into the bytes of a document superseded two saves
/// before; only a central directory older than the newest refers to them. A reader
/// marks byte 2^62 + its directory's offset (a file's directories only move forward as
/// saves append, so older means lower), and, while it opens the file and does not know
/// its directory yet, every byte from 2^62 on. A save reuses the bytes only when no mark
/// lies below 2^62 + the newest directory's offset.
///
/// Marks are shared open-file-description locks (`F_OFD_SETLK`, Linux) far past the end
/// of any file: they conflict with nothing else (the writer lock is a `flock(2)`, which
/// this kind never meets), no one waits for them (a writer only looks), they go away when
/// the descriptor is closed, and, unlike classic `fcntl` locks, they are not dropped
/// when the process closes another descriptor of the file. Where locks fail, the writer's
/// look fails too, and it reuses nothing.
package enum ReaderMark {
    /// Where marks start: far past any file's end, so no data is locked.
    private static let origin: Int64 = 1 << 62
    #if os(Linux)
        private static let getLock: Int32 = 36  // F_OFD_GETLK
        private static let setLock: Int32 = 37  // F_OFD_SETLK
    #else
        private static let getLock: Int32 = F_GETLK
        private static let setLock: Int32 = F_SETLK
    #endif

    /// Marks `fd`'s open file as being opened: before its central directory is read.
    package static func holdOpening(_ fd: Int32) {
        _ = set(fd, type: F_RDLCK, from: origin, count: 0)  // 0: to the end of all offsets
    }

    /// Narrows the mark of `fd`'s open file to the central directory it read, at
    /// `offset`: kept until the descriptor is closed.
    package static func hold(_ fd: Int32, directoryAt offset: UInt64) {
        guard offset < UInt64(origin) else { return }
        let mark = origin + Int64(offset)
        _ = set(fd, type: F_UNLCK, from: mark + 1, count: 0)
        if offset > 0 { _ = set(fd, type: F_UNLCK, from: origin, count: Int64(offset)) }
    }

    /// Whether a reader holds a central directory older than the one at `offset`, or is
    /// opening the file: asked through `fd`, an open file of it, whose own mark does not
    /// count. `true` when the question cannot be asked: then nothing may be assumed.
    package static func olderReadersHold(before offset: UInt64, asking fd: Int32) -> Bool {
        guard offset > 0, offset < UInt64(origin) else { return true }
        var lock = request(F_WRLCK, from: origin, count: Int64(offset))
        guard fcntl(fd, getLock, &lock) == 0 else { return true }
        return lock.l_type != Int16(F_UNLCK)
    }

    private static func set(_ fd: Int32, type: Int32, from start: Int64, count: Int64) -> Bool {
        var lock = request(type, from: start, count: count)
        while true {
            if fcntl(fd, setLock, &lock) == 0 { return true }
            if errno != EINTR { return false }
        }
    }

    /// A lock request of `type` on `count` bytes from `start` (0: to the end of all
    /// offsets); `l_pid` is 0, as open-file-description locks require.
    private static func request(_ type: Int32, from start: Int64, count: Int64) -> flock {
        var lock = flock()
        lock.l_type = Int16(type)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(start)
        lock.l_len = off_t(count)
        lock.l_pid = 0
        return lock
    }
}
