import Foundation

/// The environment every process a test starts runs in: a clean one, so that what the
/// machine running the tests has set (`DOCUMENTKIT_*`, `EDITOR`, `VISUAL`, `AWS_*`,
/// `PYTHONPATH`, a locale) cannot change a result. A test that needs a variable passes it.
enum TestEnvironment {
    /// What passes through from the test process: where programs are, the home and
    /// temporary folders, and the sanitizers' settings (`scripts/sanitize.sh` sets them
    /// for docctl as well as for the tests).
    static let passedThrough = [
        "PATH", "HOME", "TMPDIR", "ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "SWIFT_BACKTRACE"
    ]

    /// The variables passed through, with `PATH` defaulting to the system's.
    static let clean: [String: String] = {
        let inherited = ProcessInfo.processInfo.environment
        var environment = ["PATH": "/usr/local/bin:/usr/bin:/bin"]
        for name in passedThrough { environment[name] = inherited[name] ?? environment[name] }
        return environment
    }()

    /// The clean environment with `additions` set.
    static func clean(adding additions: [String: String]) -> [String: String] {
        clean.merging(additions) { $1 }
    }
}
