import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Show what changed between two versions: document paths and blobs.",
            discussion: """
                Array elements with an id are matched by it, so a moved or inserted task does not \
                show every later task as changed. Exits 0 when the versions are the same, 1 when \
                they differ (as diff does).
                """)

        @OptionGroup var target: BundleArgument
        @Argument(help: "The older version: a number, an id prefix, head or head~N.")
        var from: String
        @Argument(help: "The newer version (default: head).")
        var to: String?
        @OptionGroup var output: OutputOptions

        func run() throws {
            let diff = try VersionDiff(of: target.url, from: from, to: to)
            if output.json {
                try Console.printJSON(diff)
            } else {
                Console.print("--- \(Console.version(diff.from)) \(diff.from.created) \(diff.from.message)")
                Console.print("+++ \(Console.version(diff.to)) \(diff.to.created) \(diff.to.message)")
                for change in diff.changes {
                    let old = change.old.map { $0.jsonText(pretty: false) } ?? ""
                    let new = change.new.map { $0.jsonText(pretty: false) } ?? ""
                    switch change.kind {
                    case .added: Console.print("+ \(change.path): \(new)")
                    case .removed: Console.print("- \(change.path): \(old)")
                    case .changed: Console.print("~ \(change.path): \(old) -> \(new)")
                    case .reordered: Console.print("* \(change.path): reordered")
                    }
                }
                for blob in diff.blobs {
                    Console.print("\(blob.kind == .added ? "+" : "-") blob \(blob.digest.prefix(12)) (\(Console.bytes(blob.size)))")
                }
            }
            if !diff.isEmpty { throw ExitCode(1) }
        }
    }
}
