import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Another program run in the foreground, as `system(3)` runs one: it shares this
/// process's terminal (standard input, output and error), and this process waits for it.
/// DocumentKit's layers start no program themselves; a tool starts one it chose (docctl:
/// the user's editor).
package enum ChildProcess {
    package typealias Termination = ProcessTermination

    /// Runs `arguments[0]` with `arguments` and `environment` and waits for it. Errors name
    /// the program as `description` and the file concerned as `path`.
    ///
    /// While it runs, this process ignores SIGINT and SIGQUIT, as `system(3)` and git do:
    /// a Ctrl-C typed in the program is the program's to handle, and must not end the
    /// caller with work in a file nobody reports. The program itself starts with every
    /// signal at its default, whatever this process ignores (a caller may ignore SIGPIPE
    /// or SIGXFSZ, and ignored signals are otherwise inherited).
    package static func run(
        _ arguments: [String], environment: [String: String], describedAs description: String,
        path: String
    ) throws -> Termination {
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        let process = try spawn(arguments, environment: environment, describedAs: description)
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 {
            guard errno == EINTR else {
                throw DocumentKitError.system("cannot wait for \(description)", path: path, errno: errno)
            }
        }
        // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// Replaces this process with the program at `path`, run with `arguments` and this
    /// process's environment (`execv(3)`): how a tool hands a command to a helper program.
    /// Returns only if it could not, with the error.
    package static func replaceProcess(with path: String, arguments: [String]) -> DocumentKitError {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        execv(path, argv)
        return DocumentKitError(.unavailable, SystemError.message("cannot run it", errno: errno), path: path)
    }

    /// Starts `arguments[0]` with `arguments` and `environment`.
    private static func spawn(_ arguments: [String], environment: [String: String], describedAs description: String)
        throws -> pid_t
    {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGQUIT, SIGPIPE, SIGXFSZ, SIGCHLD] { sigaddset(&defaults, number) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var process: pid_t = 0
        let result = posix_spawn(&process, arguments[0], nil, &attributes, argv, envp)
        guard result == 0 else {
            throw DocumentKitError(
                .ioError, SystemError.message("cannot start \(description)", errno: result),
                path: arguments[0])
        }
        return process
    }
}
