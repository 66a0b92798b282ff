import Foundation

/// Runs docctl under hard bounds on time and memory, and measures what it used: for
/// hostile inputs, where a hang or a runaway allocation is the bug being looked for.
///
/// - Memory: the address space is capped with `ulimit -v` (RLIMIT_AS), so an allocation
///   past the cap fails inside docctl (and shows up as a crash) instead of swapping the
///   machine. The peak resident set size is docctl's `VmHWM` (/proc/PID/status), read as
///   it runs: `wait4`'s `ru_maxrss` would not do, because `posix_spawn` starts the child
///   in the test process's memory (vfork), and Linux keeps that memory's high-water mark,
///   hundreds of megabytes, as the child's own when it calls `exec`.
/// - Time: the process is killed (SIGKILL) when it passes the time limit.
///
/// `/bin/sh` applies the limit and the working directory, then `exec`s docctl, so the
/// process measured and killed is docctl itself. stdin is `/dev/null`; stdout and stderr
/// go to files, so a command that prints megabytes cannot block on a pipe.
struct BoundedRun {
    /// What a bounded run left behind.
    struct Result {
        /// The exit status, or `nil` when the process was killed by a signal.
        var status: Int32?
        /// The signal that ended the process (SIGKILL after the time limit), if any.
        var signal: Int32?
        var standardOutput: Data
        var standardError: String
        /// Wall-clock seconds.
        var seconds: Double
        /// Peak resident set size in bytes, as last read before the process ended (every
        /// 2 ms while it runs, so at most the last 2 ms of growth can be missed).
        var maxResidentBytes: Int
        /// Whether the time limit ended it.
        var timedOut: Bool
    }

    /// Whether memory is bounded and measured: not under a sanitizer, which maps terabytes
    /// of shadow memory (no address-space cap can hold it) and multiplies what a process
    /// keeps resident. Tests check memory only when this is true.
    static let boundsMemory = !Sanitizer.address && !Sanitizer.thread

    /// The address space docctl may map: the issue's "about 1 GiB" (unlimited under a
    /// sanitizer; see ``boundsMemory``).
    var addressSpaceBytes = 1 << 30
    /// How long a command may run, on a shared machine of two cores; under a sanitizer,
    /// whose checks make docctl several times slower, proportionately longer.
    var seconds: Double = 30 * (Sanitizer.thread ? 10 : Sanitizer.address ? 4 : 1)

    /// Runs docctl with `arguments` in `directory`, in `Run.environment` plus `environment`.
    func docctl(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Result {
        let scratch = try TemporaryDirectory("bounded-run")
        let outPath = scratch.path("stdout")
        let errPath = scratch.path("stderr")
        let script = #"cd -- "$1" || exit 125; shift; ulimit -v "$1" || exit 125; shift; exec "$@""#
        let limit = Self.boundsMemory ? String(addressSpaceBytes / 1024) : "unlimited"
        let arguments = ["/bin/sh", "-c", script, "sh", directory.path, limit, Run.docctlURL.path] + arguments

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let environment = Run.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

        var status: Int32 = 0
        var timedOut = false
        var peak = 0
        while true {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid { break }
            if waited < 0, errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            // Only once the process is docctl: before the shell's exec it is the shell, and,
            // for an instant after the spawn, a child that still shares the test process's
            // memory, whose high-water mark (hundreds of megabytes) is not docctl's.
            if Self.isRunning(Run.docctlURL, pid) { peak = max(peak, Self.highWaterMark(of: pid) ?? 0) }
            if !timedOut, Date().timeIntervalSince(start) > seconds {
                kill(pid, SIGKILL)
                timedOut = true
            }
            usleep(2_000)
        }
        // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        return Result(
            status: signal == 0 ? (status >> 8) & 0xFF : nil, signal: signal == 0 ? nil : signal,
            standardOutput: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(),
            standardError: String(
                decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self),
            seconds: Date().timeIntervalSince(start), maxResidentBytes: peak, timedOut: timedOut)
    }

    /// Whether process `pid` runs the program at `executable` (its `/proc/PID/exe`).
    static func isRunning(_ executable: URL, _ pid: pid_t) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))
            == executable.resolvingSymlinksInPath().path
    }

    /// The process's peak resident set size in bytes (`VmHWM`), or `nil` once it has ended.
    static func highWaterMark(of pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).dropLast(3))
        else { return nil }
        return kilobytes * 1024
    }
}
