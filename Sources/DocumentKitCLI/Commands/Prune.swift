import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Drop old versions and the objects no remaining version uses.",
            discussion: """
                Keeps the newest N versions (--keep) and/or those created on or after DATE \
                (--before); with both, a version goes only if both would drop it. The head always \
                stays; remaining versions keep their numbers and ids. --dry-run shows what would go.
                """)

        @OptionGroup var target: BundleArgument
        @Option(help: "Keep the newest N versions.")
        var keep: Int?
        @Option(help: "Drop versions created before DATE (2026-01-31 or 2026-01-31T12:00:00Z).")
        var before: String?
        @Flag(name: .customLong("dry-run"), help: "Report what would be removed, and change nothing.")
        var dryRun = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            // Said in the options' words before the library says it in its own.
            guard keep != nil || before != nil else {
                throw DocumentKitError(.usage, "say what to prune: --keep N and/or --before DATE")
            }
            if let keep, keep < 1 {
                throw DocumentKitError(.usage, "--keep must be at least 1: the head version always stays")
            }
            let date = try before.map { text -> Date in
                guard let date = DocumentDates.parse(text) else {
                    throw DocumentKitError(
                        .usage, "--before '\(text)' is not a date (use 2026-01-31 or 2026-01-31T12:00:00Z)")
                }
                return date
            }
            let report = try BundlePruner.prune(target.url, keep: keep, before: date, dryRun: dryRun)
            if output.json { return try Console.printJSON(report) }
            let versions = report.removedVersions
            let range =
                versions.isEmpty
                ? "no versions"
                : "\(versions.count) version\(versions.count == 1 ? "" : "s") (\(versions.first!)–\(versions.last!))"
            Console.print(
                """
                \(dryRun ? "would remove" : "removed") \(range) and \(report.removedObjects) \
                object\(report.removedObjects == 1 ? "" : "s"), \(ByteCount.readable(report.freedBytes)); \
                \(report.keptVersions) version\(report.keptVersions == 1 ? "" : "s") remain
                """
            )
        }
    }
}
