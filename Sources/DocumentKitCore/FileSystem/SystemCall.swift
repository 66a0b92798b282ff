import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls DocumentKit makes by path (open, stat, mkdir), each retried while it
/// fails with `EINTR`: a signal handled meanwhile must not fail an open. With ``POSIXFile``
/// (positional I/O), ``OpenFile`` (a descriptor that closes itself) and the other files of
/// this folder, these are the only places any DocumentKit layer calls the system.
#if os(Linux)
    /// `syncfs(2)`, which Glibc's module map leaves out (it is a GNU extension).
    @_silgen_name("syncfs")
    private func linuxSyncfs(_ descriptor: Int32) -> Int32
#endif

package enum SystemCall {
    /// Runs `call` again while it returns a negative result with `errno` `EINTR`.
    @inline(__always)
    package static func retrying(_ call: () -> Int32) -> Int32 {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// `open(2)` with `O_CLOEXEC` added: the descriptor, or -1 with `errno` set.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        retrying { path.withCString { openFile($0, flags | O_CLOEXEC, mode) } }
    }

    /// `stat(2)` of `path`, following symbolic links; `nil` with `errno` set when it fails.
    package static func status(_ path: String) -> stat? {
        var info = stat()
        return retrying { statusOf(path, &info) } == 0 ? info : nil
    }

    /// `lstat(2)` of `path`: a symbolic link itself; `nil` with `errno` set when it fails.
    package static func linkStatus(_ path: String) -> stat? {
        var info = stat()
        return retrying { lstat(path, &info) } == 0 ? info : nil
    }

    /// The status of `path`, or the error `operation` failing on it makes, naming the file
    /// `reported` (as the user named it).
    package static func status(_ path: String, failing operation: String, reportedAs reported: String) throws -> stat {
        guard let info = status(path) else { throw DocumentKitError.system(operation, path: reported, errno: errno) }
        return info
    }

    /// `mkdir(2)`: whether the folder was made (`errno` set when not).
    package static func makeFolder(_ path: String, mode: mode_t) -> Bool {
        retrying { mkdir(path, mode) } == 0
    }

    /// `unlink(2)`: whether the file is gone, which it also is when there was none
    /// (`errno` set when not).
    package static func removeFile(_ path: String) -> Bool {
        retrying { unlink(path) } == 0 || errno == ENOENT
    }

    /// Flushes every file of the file system that holds `path` (`syncfs(2)`): one call
    /// where a writer of many files would otherwise flush each.
    package static func synchronizeFileSystem(of path: String, reportedAs reported: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { throw DocumentKitError.system("cannot open folder", path: reported, errno: errno) }
        defer { close(fd) }
        #if os(Linux)
            guard linuxSyncfs(fd) == 0 else {
                throw DocumentKitError.system("cannot flush it", path: reported, errno: errno)
            }
        #else
            sync()
        #endif
    }

    /// Whether no process `pid` runs on this machine (`kill(2)` with no signal says
    /// `ESRCH`): the writer that named itself in a lock file has ended.
    package static func processHasEnded(_ pid: pid_t) -> Bool {
        kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The home folder and login name of the user running the process, from the user
    /// database (`getpwuid(3)`), not the environment.
    package static func user() -> (home: String?, login: String?) {
        guard let entry = getpwuid(geteuid()) else { return (nil, nil) }
        let home = entry.pointee.pw_dir.map { String(cString: $0) }
        let login = entry.pointee.pw_name.map { String(cString: $0) }
        return (home?.isEmpty == true ? nil : home, login?.isEmpty == true ? nil : login)
    }
}

// The C functions, under names the enum's own methods do not shadow.
private func openFile(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

private func statusOf(_ path: String, _ info: inout stat) -> Int32 {
    stat(path, &info)
}
