import Foundation

/// Runs docctl under hard bounds on time and memory, and measures what it used: for
/// hostile inputs, where a hang or a runaway allocation is the bug being looked for.
///
/// - Memory: the address space is capped with `ulimit -v` (RLIMIT_AS), so an allocation
///   past the cap fails inside docctl (and shows up as a crash) instead of swapping the
///   machine; the peak resident set size is measured with `wait4(2)`.
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
        /// Peak resident set size in bytes.
        var maxResidentBytes: Int
        /// Whether the time limit ended it.
        var timedOut: Bool
    }

    /// The address space docctl may map: the issue's "about 1 GiB".
    var addressSpaceBytes = 1 << 30
    /// How long a command may run, on a shared machine of two cores.
    var seconds: Double = 30

    /// Runs docctl with `arguments` in `directory`, in `Run.environment` plus `environment`.
    func docctl(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> Result {
        let scratch = try TemporaryDirectory("bounded-run")
        let outPath = scratch.path("stdout")
        let errPath = scratch.path("stderr")
        let script = #"cd -- "$1" || exit 125; shift; ulimit -v "$1" || exit 125; shift; exec "$@""#
        let arguments = ["/bin/sh", "-c", script, "sh", directory.path, String(addressSpaceBytes / 1024), Run.docctlURL.path] + arguments

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
        var usage = rusage()
        var timedOut = false
        while true {
            let waited = wait4(pid, &status, WNOHANG, &usage)
            if waited == pid { break }
            if waited < 0, errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
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
            standardError: String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self),
            seconds: Date().timeIntervalSince(start), maxResidentBytes: usage.ru_maxrss * 1024, timedOut: timedOut)
    }
}
