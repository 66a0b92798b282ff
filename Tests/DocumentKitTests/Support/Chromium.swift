import Foundation
import Testing

/// Debian's Chromium, headless: the real browser the HTML export is checked in. Each run
/// is a process of its own (a second or two), with a profile in a folder of its own, the
/// sandbox off (tests run as root in CI) and its console written to standard error, where
/// ``Page/console`` finds it.
///
/// Where `chromium` is not installed the test is cancelled (reported as skipped, with the
/// reason) unless `DOCUMENTKIT_REQUIRE_CHROMIUM` is set, as `.ci/run` sets it: there a
/// missing browser fails.
enum Chromium {
    static let tool = ExternalTool(name: "chromium")
    /// Set by `.ci/run`, so that CI fails rather than skips when the browser is missing.
    static let isRequired = ProcessInfo.processInfo.environment["DOCUMENTKIT_REQUIRE_CHROMIUM"] != nil
    static let skipReason = "needs Debian's headless Chromium (apt-get install chromium): run scripts/setup.sh"

    /// Cancels the test (skipped, with the reason) when Chromium is missing, unless it is
    /// required; then the test fails, saying so.
    static func requireForThisTest() throws {
        guard !tool.isAvailable else { return }
        if isRequired {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [NSLocalizedDescriptionKey: "DOCUMENTKIT_REQUIRE_CHROMIUM is set, but the test \(skipReason)"]
            )
        }
        try Test.cancel(Comment(rawValue: skipReason))
    }

    /// What a page gave: its DOM once loaded (scripts run), and its console's messages.
    struct Page {
        var dom: String
        var console: [String]
    }

    /// Loads `file` and dumps its DOM.
    static func dumpDOM(_ file: URL, in directory: TemporaryDirectory) throws -> Page {
        let result = try run(["--dump-dom", file.absoluteString], in: directory)
        return Page(dom: result.output, console: consoleLines(result.standardError))
    }

    /// Loads `file` in a window of `width` × `height` (with `darkScheme`, as a system in
    /// dark mode shows it) and writes what it shows to `png`; returns the console's messages.
    static func screenshot(
        _ file: URL, to png: URL, width: Int = 1200, height: Int = 900, darkScheme: Bool = false,
        in directory: TemporaryDirectory
    )
        throws -> [String]
    {
        let result = try run(
            ["--screenshot=\(png.path)", "--window-size=\(width),\(height)", "--hide-scrollbars"]
                + (darkScheme ? ["--force-dark-mode"] : []) + [file.absoluteString],
            in: directory)
        #expect(result.status == 0, "chromium: \(result.standardError.suffix(2000))")
        return consoleLines(result.standardError)
    }

    private static func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> ExternalTool.Result {
        let profile = directory.url.appendingPathComponent("chromium-profile-\(UUID().uuidString)")
        return try tool.run(
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)", "--no-first-run",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--enable-logging=stderr", "--v=0"
            ] + arguments)
    }

    /// The console's messages among Chromium's log lines: `[…:INFO:CONSOLE:3] "…", source: …`.
    /// Any message at all counts: a page of the export logs nothing.
    static func consoleLines(_ log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
    }
}
