import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log",
            abstract: "List a bundle's versions, newest first, with what each changed.",
            discussion: """
                Each version shows its id, parent, time (UTC), author, schema version, the \
                software that wrote it, its message, and the document paths (~ changed, \
                + added, - removed, * reordered) and blobs it changed, as recorded when it was \
                saved. `\(DocumentTool.name) diff` shows the values, `\(DocumentTool.name) show` one version's. \
                --author, --grep, --since and --until list the versions that meet all of them \
                (also with --json); patterns are regular expressions, found anywhere in the text.
                """)

        @OptionGroup var target: BundleArgument
        @Option(
            name: [.customShort("n"), .customLong("max-count")],
            help: "Show at most N versions (-3 and -n3 too, as git takes them).")
        var count: Int?
        @Option(help: ArgumentHelp("Only versions whose author matches PATTERN.", valueName: "pattern"))
        var author: String?
        @Option(help: ArgumentHelp("Only versions whose message matches PATTERN.", valueName: "pattern"))
        var grep: String?
        @Option(
            help: ArgumentHelp(
                """
                Only versions saved at or after DATE: 2026-03-01, 2026-03-01T09:30:00Z, today, yesterday or \
                2.weeks.ago (UTC).
                """,
                valueName: "date"))
        var since: String?
        @Option(
            help: ArgumentHelp("Only versions saved at or before DATE; a day counts to its end.", valueName: "date"))
        var until: String?
        @Flag(name: [.customShort("i"), .long], help: "Match --author and --grep ignoring case.")
        var regexpIgnoreCase = false
        @Flag(help: "One line per version: number, id, time, author, message.")
        var oneline = false
        @Flag(help: "Draw the history beside the versions, as git log --graph: lanes, merges and where they join.")
        var graph = false
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if let count, count < 1 { throw ValidationError("--max-count must be at least 1") }
            if graph, output.json { throw ValidationError("--graph draws text: it cannot be used with --json") }
            if graph, author != nil || grep != nil || since != nil || until != nil {
                throw ValidationError(
                    "--graph draws the whole history: it cannot be used with --author, --grep, --since or --until")
            }
        }

        func run() throws {
            if graph { return try printGraph() }
            let filter = VersionFilter(
                author: try OptionValue.parse(author, for: "--author", valueName: "pattern") {
                    try VersionFilter.pattern($0, ignoringCase: regexpIgnoreCase)
                },
                message: try OptionValue.parse(grep, for: "--grep", valueName: "pattern") {
                    try VersionFilter.pattern($0, ignoringCase: regexpIgnoreCase)
                },
                since: try OptionValue.parse(since, for: "--since", valueName: "date") { try VersionFilter.time($0) },
                until: try OptionValue.parse(until, for: "--until", valueName: "date") {
                    try VersionFilter.time($0, endOfDay: true)
                })
            if output.json {
                return try Console.printJSON(try BundleSummary.log(of: target.url, matching: filter, limit: count))
            }
            // Printed as read, in chunks: the first version at once, then 64 KiB at a time.
            var pending = ""
            var printed = 0
            func flush() {
                guard !pending.isEmpty else { return }
                if oneline { Console.print(String(pending.dropLast())) } else { Console.write(Data(pending.utf8)) }
                pending = ""
            }
            // What was read is printed, then the error that stopped the reading.
            defer { flush() }
            try BundleSummary.log(of: target.url, matching: filter, limit: count) { version in
                pending += oneline ? Self.oneLine(version) + "\n" : (printed == 0 ? "" : "\n") + Self.describe(version)
                printed += 1
                if printed == 1 || pending.utf8.count >= 1 << 16 { flush() }
            }
        }

        /// The versions with the graph beside them: every version's lanes are drawn, the first
        /// `count` versions printed.
        private func printGraph() throws {
            let versions = try BundleSummary.log(of: target.url)
            let rows = VersionGraph(versions).rows
            let shown = count.map { min($0, versions.count) } ?? versions.count
            var text = ""
            func line(_ graph: String, _ content: String) {
                // A graph line without text ends at its last mark, as git's would but for its spaces.
                var full = graph + content
                while full.last == " " { full.removeLast() }
                text += full + "\n"
            }
            for index in 0..<shown {
                let (version, row) = (versions[index], rows[index])
                let isLast = index == shown - 1
                var lines =
                    oneline
                    ? [Self.oneLine(version)]
                    : Self.describe(version).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
                        String.init)
                if !oneline, !isLast { lines.append("") }
                line(row.first, lines[0])
                if let merge = row.merge { line(merge, lines.count > 1 ? lines[1] : "") }
                for content in lines.dropFirst(row.merge == nil ? 1 : 2) { line(row.rest, content) }
                if !isLast { row.after.forEach { line($0, "") } }
            }
            Console.write(Data(text.utf8))
        }

        /// A version on one line, for --oneline: its message's first line, as git's.
        static func oneLine(_ version: VersionSummary) -> String {
            """
            \(version.number)  \(version.id.prefix(12))  \(version.created)  \(version.author)  \
            \(version.message.prefix { $0 != "\n" })
            """
        }

        /// A version as a block of text, git-log style.
        static func describe(_ version: VersionSummary) -> String {
            var lines = header(version)
            if version.parents.isEmpty {
                lines.append("    (first version)")
            } else if let changes = version.changes {
                let symbols: [JSONChange.Kind: String] = [.changed: "~", .added: "+", .removed: "-", .reordered: "*"]
                lines += changes.paths.map { "    \(symbols[$0.kind]!) \($0.path)" }
                lines += changes.blobs.map {
                    "    \($0.kind == .added ? "+" : "-") blob \($0.digest.prefix(12)) (\(ByteCount.readable($0.size)))"
                }
                if changes.omitted > 0 {
                    lines.append("    … and \(changes.omitted) more (\(DocumentTool.name) diff shows all)")
                }
                if changes.isEmpty { lines.append("    (no changes)") }
            } else {
                lines.append(
                    """
                        (changes not recorded; \(DocumentTool.name) diff \(version.parents[0].prefix(12)) \
                    \(version.number) shows them)
                    """
                )
            }
            return lines.joined(separator: "\n") + "\n"
        }

        /// A version's id, parents, date, author, schema and message, and the empty line
        /// below, as `log` and `show` begin it.
        static func header(_ version: VersionSummary) -> [String] {
            [
                "version \(version.number)  \(version.id)",
                // A merge names both parents, the version merged into first, as git's "Merge:".
                version.parents.count > 1
                    ? "merge    \(version.parents.joined(separator: " "))"
                    : "parent   \(version.parents.first ?? "none")",
                "date     \(version.created)",
                "author   \(version.author)",
                "schema   \(version.schema)  (\(version.writer))",
                "",
                version.message.isEmpty
                    ? "    (no message)"
                    : version.message.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
                        .joined(separator: "\n"),
                ""
            ]
        }
    }
}
