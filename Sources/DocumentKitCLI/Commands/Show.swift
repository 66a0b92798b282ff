import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one version: its log entry and what it changed (default: the head).",
            discussion: """
                The version's id, parents, date, author, schema and message, as log prints them, \
                then its changes against its parent with their values, as diff prints them. A merge \
                (two parents, on its 'merge' line) is compared with its first parent, the version \
                merged into; the first version, and one whose parent was pruned, with nothing, so \
                that all it holds is added. --json gives the version, its parent, the changes and \
                the blobs.
                """)

        @OptionGroup var target: BundleArgument
        @Argument(help: "The version: a number, an id prefix, head or head~N (default: head).")
        var version: String?
        @OptionGroup var output: OutputOptions

        func run() throws {
            let detail = try VersionDetail(of: target.url, version: version)
            if output.json { return try Console.printJSON(detail) }
            let base: String
            if let parent = detail.parent {
                base = ChangeLines.side(parent)
            } else if let pruned = detail.version.parents.first {
                base = "none (parent \(pruned.prefix(12)) was pruned)"
            } else {
                base = "none"
            }
            let lines =
                Log.header(detail.version)
                + ChangeLines.lines(
                    from: base, to: ChangeLines.side(detail.version), changes: detail.changes, blobs: detail.blobs)
            Console.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        }
    }
}
