import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI

/// `log`'s filters and its graph, on histories made by docctl: dates from
/// `SOURCE_DATE_EPOCH`, merges by a real `pull` between two copies.
@Suite struct LogCommandTests {
    /// Seconds since 1970 of `2026-01-DDT10:00:00Z`.
    private func january(_ day: Int) -> String { String(1_767_225_600 + (day - 1) * 86_400 + 36_000) }

    @discardableResult
    private func docctl(
        _ arguments: [String], in directory: URL, day: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ExternalTool.Result {
        let result = try Run.docctl(arguments, in: directory, environment: ["SOURCE_DATE_EPOCH": january(day)])
        #expect(result.status == 0, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        return result
    }

    /// Four versions by two authors over three weeks of January 2026.
    private func makeHistory(in directory: URL) throws {
        try docctl(["new", "p.dkproj", "--name", "Garden", "--author", "Ada Lovelace <ada@example.org>"], in: directory)
        try docctl(
            ["set", "p.dkproj", "summary", "Beds", "-m", "Water the beds", "--author", "Bob <bob@example.org>"],
            in: directory, day: 5)
        try docctl(
            [
                "set", "p.dkproj", "name", "Garden 2", "-m", "Plan: more beds", "--author",
                "Ada Lovelace <ada@example.org>"
            ], in: directory, day: 10)
        try docctl(
            ["set", "p.dkproj", "summary", "Weeds", "-m", "Weed\n\nthe north side", "--author", "bob"], in: directory,
            day: 20)
    }

    /// The numbers `log --oneline` lists with `arguments`.
    private func numbers(_ arguments: [String], in directory: URL, day: Int = 21) throws -> [Int] {
        try docctl(["log", "p.dkproj", "--oneline"] + arguments, in: directory, day: day).output
            .split(separator: "\n").map { Int($0.prefix { $0 != " " })! }
    }

    @Test func filtersCombineLikeGitLogs() throws {
        let directory = try TemporaryDirectory()
        try makeHistory(in: directory.url)
        #expect(try numbers([], in: directory.url) == [4, 3, 2, 1])
        #expect(try numbers(["--author", "Bob"], in: directory.url) == [2], "a pattern is case-sensitive")
        #expect(try numbers(["--author", "bob"], in: directory.url) == [4, 2], "found anywhere: bob@example.org")
        #expect(try numbers(["--author", "^bob$", "-i"], in: directory.url) == [4])
        #expect(try numbers(["--author", "Ada|^bob"], in: directory.url) == [4, 3, 1], "a regular expression")
        #expect(try numbers(["--grep", "beds"], in: directory.url) == [3, 2])
        #expect(
            try numbers(["--grep", "^the north"], in: directory.url) == [],
            "^ is the start of the message, not of a line")
        #expect(try numbers(["--grep", "north side"], in: directory.url) == [4], "the whole message")
        #expect(try numbers(["--grep", "plan: more", "--regexp-ignore-case"], in: directory.url) == [3])
        #expect(try numbers(["--since", "2026-01-05"], in: directory.url) == [4, 3, 2], "from the day's start")
        #expect(try numbers(["--until", "2026-01-05"], in: directory.url) == [2, 1], "to the day's end")
        #expect(try numbers(["--since", "2026-01-05T10:00:01Z"], in: directory.url) == [4, 3])
        #expect(
            try numbers(["--until", "2026-01-10T11:00:00+02:00"], in: directory.url) == [2, 1],
            "09:00 UTC: before version 3")
        #expect(
            try numbers(["--since", "2.weeks.ago"], in: directory.url) == [4, 3],
            "two weeks before 2026-01-21T10:00:00Z")
        #expect(try numbers(["--since", "yesterday"], in: directory.url) == [4])
        #expect(try numbers(["--since", "today"], in: directory.url, day: 20) == [4])
        #expect(
            try numbers(
                ["--author", "bob", "--since", "2026-01-04", "--until", "2026-01-19", "--grep", "beds"],
                in: directory.url) == [2])
        #expect(
            try numbers(["--grep", "beds", "-n", "1"], in: directory.url) == [3],
            "--max-count counts what the filters keep")
    }

    /// git's counts: `-n1` (value joined) and `-3` (the count as the option), anywhere among
    /// the options; a value of another option that looks like one stays that option's.
    @Test func theCountIsTakenInGitsSpellings() throws {
        let directory = try TemporaryDirectory()
        try makeHistory(in: directory.url)
        #expect(try numbers(["-n1"], in: directory.url) == [4])
        #expect(try numbers(["-3"], in: directory.url) == [4, 3, 2])
        #expect(try numbers(["-2", "--author", "bob"], in: directory.url) == [4, 2])
        #expect(try numbers(["--max-count", "2"], in: directory.url) == [4, 3])
        #expect(LogCountShorthand.expanded(["log", "b", "-n12", "--", "-3"]) == ["log", "b", "-n", "12", "--", "-3"])
        #expect(LogCountShorthand.expanded(["show", "b", "-3"]) == ["show", "b", "-3"], "log's alone")
        #expect(
            LogCountShorthand.expanded(["log", "b", "--grep", "-3"]) == ["log", "b", "--grep", "-3"],
            "another option's value")
        let zero = try Run.docctl(["log", "p.dkproj", "-0"], in: directory.url)
        #expect(
            zero.status == 64
                && zero.standardError == "error: --max-count must be at least 1 (see 'docctl log --help')\n")
    }

    @Test func jsonIsFilteredAlike() throws {
        let directory = try TemporaryDirectory()
        try makeHistory(in: directory.url)
        let all = try docctl(["log", "p.dkproj", "--json"], in: directory.url).output
        let filtered = try docctl(["log", "p.dkproj", "--json", "--author", "bob"], in: directory.url).output
        // The same records, byte for byte, as the whole log prints them: versions 4 and 2.
        guard case .array(let versions) = try JSONValue.parse(Data(all.utf8)) else {
            Issue.record("not an array")
            return
        }
        #expect(
            filtered == String(decoding: JSONValue.array([versions[0], versions[2]]).encoded(), as: UTF8.self) + "\n")
        #expect(
            try docctl(["log", "p.dkproj", "--json", "--grep", "nothing like this"], in: directory.url).output == "[]\n"
        )
        #expect(
            try docctl(["log", "p.dkproj", "--grep", "nothing like this"], in: directory.url).output == "",
            "no versions, no text")
    }

    @Test func badFilterValuesAreUsageErrorsNamingTheOptionAndTheValue() throws {
        let directory = try TemporaryDirectory()
        try makeHistory(in: directory.url)
        let dates =
            """
            expected a date (2026-03-01), a date-time (2026-03-01T09:30:00Z), today, yesterday or N.UNITS.ago \
            (2.weeks.ago)
            """
        let cases: [([String], String)] = [
            (["--since", "someday"], "the value 'someday' is invalid for '--since <date>': \(dates)"),
            (["--until", "2026-02-30T10:00"], "the value '2026-02-30T10:00' is invalid for '--until <date>': \(dates)"),
            (["--since", "2.fortnights.ago"], "the value '2.fortnights.ago' is invalid for '--since <date>': \(dates)"),
            (
                ["--author", "(ada"],
                """
                the value '(ada' is invalid for '--author <pattern>': not a regular expression (put \\ before ( [ \
                { * + ? | ^ $ . \\ to match them as they are)
                """
            ),
            (
                ["--grep", "[a"],
                """
                the value '[a' is invalid for '--grep <pattern>': not a regular expression (put \\ before ( [ { * \
                + ? | ^ $ . \\ to match them as they are)
                """
            ),
            (["-n", "0"], "--max-count must be at least 1"),
            (["--graph", "--json"], "--graph draws text: it cannot be used with --json"),
            (
                ["--graph", "--grep", "x"],
                "--graph draws the whole history: it cannot be used with --author, --grep, --since or --until"
            )
        ]
        for (arguments, message) in cases {
            let result = try Run.docctl(["log", "p.dkproj"] + arguments, in: directory.url)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.standardError == "error: \(message) (see 'docctl log --help')\n", "\(arguments)")
            #expect(result.output.isEmpty, "\(arguments)")
        }
    }

    /// `a.dkproj` after pulling `b.dkproj`, a copy edited apart: versions 1-4 common, 5 ours,
    /// 6 and 7 theirs, 8 the merge.
    private func mergedCopies(in directory: URL) throws -> DocumentBundle {
        try docctl(["new", "a.dkproj", "--name", "Garden", "--author", "ada"], in: directory)
        try docctl(["set", "a.dkproj", "tasks[+]", #"{"title": "Dig"}"#, "--author", "ada"], in: directory)
        try docctl(["set", "a.dkproj", "tasks[+]", #"{"title": "Sow"}"#, "--author", "ada"], in: directory)
        try docctl(["set", "a.dkproj", "summary", "Beds", "--author", "ada"], in: directory)
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent("a.dkproj"), to: directory.appendingPathComponent("b.dkproj"))
        try docctl(["set", "a.dkproj", "name", "Garden A", "-m", "Rename", "--author", "ada"], in: directory, day: 2)
        try docctl(
            ["set", "b.dkproj", "tasks[+]", #"{"title": "Water"}"#, "-m", "Water", "--author", "bob"], in: directory,
            day: 3)
        try docctl(
            ["set", "b.dkproj", "tasks[1].status", "done", "-m", "Sown", "--author", "bob"], in: directory, day: 4)
        let pull = try docctl(["pull", "a.dkproj", "b.dkproj", "--author", "ada"], in: directory, day: 5)
        #expect(pull.output.hasPrefix("merged b.dkproj into a.dkproj as version 8 ("))
        return try DocumentBundle(contentsOf: directory.appendingPathComponent("a.dkproj"))
    }

    @Test func theGraphOfAPullsMergeIsDrawnAsGitDrawsIt() throws {
        let directory = try TemporaryDirectory()
        let bundle = try mergedCopies(in: directory.url)
        let ids = try bundle.manifest.versions.map(\.shortID)
        let oneline = try docctl(["log", "a.dkproj", "--graph", "--oneline"], in: directory.url)
        #expect(
            oneline.output == """
                *   8  \(ids[7])  2026-01-05T10:00:00Z  ada  Merge b.dkproj at \(ids[6])
                |\\
                | * 7  \(ids[6])  2026-01-04T10:00:00Z  bob  Sown
                | * 6  \(ids[5])  2026-01-03T10:00:00Z  bob  Water
                * | 5  \(ids[4])  2026-01-02T10:00:00Z  ada  Rename
                |/
                * 4  \(ids[3])  2026-01-01T10:00:00Z  ada  Set summary
                * 3  \(ids[2])  2026-01-01T10:00:00Z  ada  Set tasks[+]
                * 2  \(ids[1])  2026-01-01T10:00:00Z  ada  Set tasks[+]
                * 1  \(ids[0])  2026-01-01T10:00:00Z  ada  Create Garden

                """)
        // The whole entries, each line beside its lanes; -n keeps the first versions.
        let versions = try bundle.manifest.versions
        let full = try docctl(["log", "a.dkproj", "--graph", "-n", "4"], in: directory.url)
        let writer = "DocumentKit \(DocumentKitInfo.version)"
        let changed = versions[6].changes!.paths.map { "| |     ~ \($0.path)" }.joined(separator: "\n")
        #expect(
            full.output == """
                *   version 8  \(versions[7].id)
                |\\  merge    \(versions[4].id) \(versions[6].id)
                | | date     2026-01-05T10:00:00Z
                | | author   ada
                | | schema   4.0.0  (\(writer))
                | |
                | |     Merge b.dkproj at \(ids[6])
                | |
                | |     ~ tasks[id=\(try taskID("Sow", in: bundle))].status
                | |     + tasks[id=\(try taskID("Water", in: bundle))]
                | |
                | * version 7  \(versions[6].id)
                | | parent   \(versions[5].id)
                | | date     2026-01-04T10:00:00Z
                | | author   bob
                | | schema   4.0.0  (\(writer))
                | |
                | |     Sown
                | |
                \(changed)
                | |
                | * version 6  \(versions[5].id)
                | | parent   \(versions[3].id)
                | | date     2026-01-03T10:00:00Z
                | | author   bob
                | | schema   4.0.0  (\(writer))
                | |
                | |     Water
                | |
                | |     + tasks[id=\(try taskID("Water", in: bundle))]
                | |
                * | version 5  \(versions[4].id)
                | | parent   \(versions[3].id)
                | | date     2026-01-02T10:00:00Z
                | | author   ada
                | | schema   4.0.0  (\(writer))
                | |
                | |     Rename
                | |
                | |     ~ name

                """)
        // Without --graph, the log is as it was.
        #expect(
            try docctl(["log", "a.dkproj", "-n", "1"], in: directory.url).output.hasPrefix(
                "version 8  \(versions[7].id)\nmerge    "))
    }

    /// The id of the head's task titled `title`.
    private func taskID(_ title: String, in bundle: DocumentBundle) throws -> String {
        guard case .object(let document) = try JSONValue.parse(bundle.documentData(of: bundle.headVersion)),
            case .array(let tasks)? = document["tasks"],
            case .object(let task)? = tasks.first(where: {
                if case .object(let task) = $0 { task["title"] == .string(title) } else { false }
            }),
            case .string(let id)? = task["id"]
        else { throw DocumentKitError(.notFound, "no task \(title)") }
        return id
    }
}
