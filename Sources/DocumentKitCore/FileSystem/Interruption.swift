import Foundation

/// What a process does when it is told to stop by SIGINT (Ctrl-C), SIGTERM or SIGHUP (its
/// terminal closed): remove every temporary it made (``TemporaryRegistry``), say so once,
/// and exit with 128 + the signal's number (130, 143, 129), as a shell reports a process
/// that signal ended.
///
/// The signal handler itself only writes the signal's number to a pipe (`write(2)` is
/// async-signal-safe); a thread of its own waits on the pipe and does the rest, where locks,
/// allocation and file removal are allowed. A child process run meanwhile
/// (``ChildProcess``) still has SIGINT ignored for it, as before.
package enum Interruption {
    /// The signals handled.
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// What a process had already written in full when it was told to stop: what its line
    /// says, since after a save's last rename "nothing was written" would be untrue.
    package enum Written: Sendable, Equatable {
        /// Nothing outside its temporaries, which are removed.
        case nothing
        /// The file or folder at this path (as the user named it) was put in place whole.
        case output(String)
        /// Files went to the remote at this address: each whole, the command not finished.
        case remote(String)
    }

    private static let written = Protected(Written.nothing)

    /// Notes that the file or folder at `path` was put in place whole.
    /// A remote already written to stays the report: a folder remote puts its own files in
    /// place through the same atomic writers, and those are part of what was sent.
    package static func noteWritten(_ path: String) {
        written.mutate { written in
            if case .remote = written { return }
            written = .output(path)
        }
    }

    /// Notes that a file went to the remote at `address`.
    package static func noteRemoteWrite(_ address: String) {
        written.value = .remote(address)
    }
    /// The pipe the handler writes to (`write`) and the waiting thread reads (`read`),
    /// made on first use, which ``install(report:)`` is, before any handler can run: a
    /// handler then only loads a constant.
    private static let notification: (read: Int32, write: Int32)? = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }()

    /// Installs the handlers. On a signal, the temporaries are removed, then `report` is
    /// called with the signal's number and what was already written (to print one line),
    /// then the process exits. Call it once, early in `main`.
    package static func install(report: @escaping @Sendable (Int32, Written) -> Void) {
        guard let waiting = notification?.read else { return }
        Thread.detachNewThread {
            var number: Int32 = 0
            while true {
                let count = read(waiting, &number, MemoryLayout<Int32>.size)
                if count == MemoryLayout<Int32>.size { break }
                if count < 0, errno == EINTR { continue }
                return
            }
            TemporaryRegistry.removeAll()
            report(number, written.value)
            _exit(128 + number)
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals {
            let previous = signal(number) { number in
                var value = number
                let saved = errno
                _ = write(Interruption.notification?.write ?? -1, &value, MemoryLayout<Int32>.size)
                errno = saved
            }
            // A signal the parent ignores stays ignored (`nohup`, a shell's background job).
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                _ = signal(number, SIG_IGN)
            }
            sigaddset(&unblocked, number)
        }
        // A mask is inherited: a parent that started this process from a thread blocking
        // these signals (a worker thread of a thread pool) would leave them pending forever.
        // Threads started from here on inherit this thread's mask.
        _ = pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    }
}
