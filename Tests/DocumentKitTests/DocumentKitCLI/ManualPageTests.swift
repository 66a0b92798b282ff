import Foundation
import Testing

/// man/docctl.1 is generated from docctl's help and committed; these tests fail when a
/// command, an option or a help text changed and the page was not generated again.
///
/// The page is made by swift-argument-parser's generate-manual plugin, which builds the
/// package and runs its `generate-manual` tool on docctl. Running the plugin here would
/// need a second SwiftPM inside `swift test` (which holds the build folder) or a second
/// build of everything in a scratch path of its own (minutes). So the test runs the same
/// tool, with the arguments the plugin gives it, on the docctl built beside the tests:
/// it is the plugin's own output, not a rendering of ours. SwiftPM builds the tool only when
/// asked (it is not a product of swift-argument-parser, only a target the plugin uses):
/// `.ci/run` does so after `swift build --build-tests` (`swift build --product
/// generate-manual`: 15 s on the project's 2-core machine, ArgumentParser being built), and
/// sets `DOCUMENTKIT_REQUIRE_MANUAL_CHECK`, so that CI never skips the check. Elsewhere a
/// build without the tool skips it, saying how to run it.
@Suite struct ManualPageTests {
    static let page = Fixtures.repository.appendingPathComponent("man/docctl.1")
    static let regenerate = "run scripts/generate-manual.sh and commit man/docctl.1"

    /// generate-manual, as `swift build --product generate-manual` (or the plugin) builds it.
    static let tool = ExternalTool(
        name: "generate-manual",
        path: Run.docctlURL.deletingLastPathComponent().appendingPathComponent("generate-manual").path)
    static let isRequired = ProcessInfo.processInfo.environment["DOCUMENTKIT_REQUIRE_MANUAL_CHECK"] != nil

    @Test(
        .enabled(
            if: tool.isAvailable || isRequired,
            "needs generate-manual beside docctl: swift build --product generate-manual"))
    func committedManualIsTheGeneratedOne() throws {
        guard Self.tool.isAvailable else {
            Issue.record("generate-manual is not built: swift build --product generate-manual (.ci/run does)")
            return
        }
        let committed = try Data(contentsOf: Self.page)
        // The page keeps the date it was generated on (scripts/generate-manual.sh), so it is
        // generated again with that date: only the text is compared.
        let date = try #require(
            Self.date(of: String(decoding: committed, as: UTF8.self)), "man/docctl.1 has no .Dd date line")
        let directory = try TemporaryDirectory()
        let result = try Self.tool.run(
            [Run.docctlURL.path, "--output-directory", directory.url.path, "--date", date],
            environment: Run.environment)
        #expect(result.status == 0, "generate-manual failed: \(result.standardError)")
        let generated = try Data(contentsOf: directory.url.appendingPathComponent("docctl.1"))
        #expect(generated == committed, "man/docctl.1 is out of date with docctl's help: \(Self.regenerate)")
    }

    @Test func manualDescribesEveryCommand() throws {
        // Independent of the tool: a command docctl has but the page lacks is caught
        // even where generate-manual is not built.
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        let help = try Run.docctl(["--help"], environment: ["COLUMNS": "200"])
        let commands = help.output.split(separator: "\n", omittingEmptySubsequences: false).drop {
            $0 != "SUBCOMMANDS:"
        }
        .dropFirst().prefix { !$0.isEmpty }.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count > 20)
        let missing = commands.filter { !text.contains("\n.It Em \($0)\n") }
        #expect(missing.isEmpty, "man/docctl.1 lacks \(missing.joined(separator: ", ")): \(Self.regenerate)")
    }

    /// The `.Dd Month D, YYYY` date of a page as generate-manual's `--date` takes it (YYYY-MM-DD).
    static func date(of page: String) -> String? {
        guard let line = page.split(separator: "\n").first(where: { $0.hasPrefix(".Dd ") }) else { return nil }
        let reading = DateFormatter()
        reading.locale = Locale(identifier: "en_US_POSIX")
        reading.timeZone = TimeZone(identifier: "UTC")
        reading.dateFormat = "MMMM d, yyyy"
        guard let date = reading.date(from: String(line.dropFirst(4))) else { return nil }
        let writing = ISO8601DateFormatter()
        writing.formatOptions = [.withFullDate]
        return writing.string(from: date)
    }
}
