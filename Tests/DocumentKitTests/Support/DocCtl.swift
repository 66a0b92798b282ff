import Foundation
import Testing

/// Runs the docctl built beside the tests as a real process.
enum Run {
    /// The docctl built beside the test binary (or `$DOCCTL` when set).
    static let docctlURL: URL = {
        if let path = ProcessInfo.processInfo.environment["DOCCTL"] { return URL(fileURLWithPath: path) }
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL
        ].compactMap { $0?.appendingPathComponent("docctl") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }()

    /// The example app's tool (Sources/notectl), built beside docctl: docctl's commands
    /// over the app's own `Note` type.
    static var notectlURL: URL { docctlURL.deletingLastPathComponent().appendingPathComponent("notectl") }

    /// Runs notectl as `docctl(_:in:environment:)` runs docctl.
    @discardableResult
    static func notectl(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws
        -> ExternalTool.Result
    {
        try ExternalTool(name: "notectl", path: notectlURL.path).run(
            arguments, environment: Run.environment.merging(environment) { $1 }, in: directory)
    }

    /// Where docctl looks for the user's settings unless a test names its own
    /// `XDG_CONFIG_HOME`: a path under `/dev/null`, which holds no settings and under which
    /// nothing (not even root) can create one. So neither the real user's settings nor
    /// another test's reach a test, and a test that writes settings must give a folder of its own.
    static let noConfigurationHome = "/dev/null/docctl-tests"

    /// Runs docctl with `arguments` in `directory`, with a fixed time zone, locale and
    /// `SOURCE_DATE_EPOCH`, and no user settings, unless `environment` overrides them.
    @discardableResult
    static func docctl(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws
        -> ExternalTool.Result
    {
        try ExternalTool(name: "docctl", path: docctlURL.path).run(
            arguments, environment: Run.environment.merging(environment) { $1 }, in: directory)
    }

    /// The environment docctl runs in under test, also for tests that start it themselves
    /// (through a shell, or as a `Process` to kill): the clean one (``TestEnvironment``),
    /// with a fixed clock, time zone and locale, no colour and no user settings.
    static let environment = TestEnvironment.clean(adding: [
        "SOURCE_DATE_EPOCH": "1767225600", "TZ": "UTC", "LC_ALL": "C.UTF-8", "NO_COLOR": "1",
        "XDG_CONFIG_HOME": noConfigurationHome
    ])
}

extension Run {
    /// Runs docctl as ``docctl(_:in:environment:)`` does, expecting it to succeed.
    @discardableResult
    static func succeeding(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ExternalTool.Result {
        let result = try docctl(arguments, in: directory, environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        return result
    }
}

extension Fixtures {
    /// `a.dkproj` and `b.dkproj` in `directory`: a copy of it with one more version, a new task.
    static func twoCopies(in directory: URL, environment: [String: String] = [:]) throws {
        try Run.succeeding(
            ["new", "a.dkproj", "--name", "Garden", "--author", "ada"], in: directory, environment: environment)
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("a.dkproj"), to: directory.appendingPathComponent("b.dkproj"))
        try Run.succeeding(
            [
                "set", "b.dkproj", "tasks[+]", #"{"id": "00000000-0000-4000-8000-000000000001", "title": "Dig"}"#, "-m",
                "Dig", "--author", "bob"
            ],
            in: directory, environment: environment)
    }
}

/// Expects a docctl failure: exactly one `error: …` line containing `fragment`, the
/// given exit status, nothing on stdout.
func expectFailure(
    _ result: ExternalTool.Result, status: Int32, containing fragment: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(result.status == status, "exit status; stderr: \(result.standardError)", sourceLocation: sourceLocation)
    let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 1, "one line on stderr, got: \(result.standardError)", sourceLocation: sourceLocation)
    #expect(
        result.standardError.hasPrefix("error: "), "stderr: \(result.standardError)", sourceLocation: sourceLocation)
    #expect(result.standardError.contains(fragment), "stderr: \(result.standardError)", sourceLocation: sourceLocation)
    #expect(!result.standardError.contains("Fatal error"), sourceLocation: sourceLocation)
}
