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
                they differ (as diff does). `\(DocumentTool.name) diff A.dkproj B.dkproj` compares \
                two bundles (copies of a project, or any two), each at its head or at the version \
                after a colon (A.dkproj:3). Of two arguments, the second is a bundle when it is an \
                existing file, or FILE:V of one, and otherwise a version of the first; of three, \
                the second and third are versions.
                """)

        @OptionGroup var target: BundleArgument
        @Argument(help: "The older version: a number, an id prefix, head or head~N; or a second bundle, B.dkproj[:V].")
        var from: String
        @Argument(help: "The newer version (default: head).")
        var to: String?
        @OptionGroup var output: OutputOptions

        func run() throws {
            let diff: VersionDiff
            // Three arguments are a bundle and two versions, as they always were.
            if to == nil, BundleVersionName.namesBundle(from) {
                let (old, new) = (BundleVersionName(target.bundle), BundleVersionName(from))
                diff = try VersionDiff(
                    from: URL(fileURLWithPath: old.bundle), version: old.version,
                    to: URL(fileURLWithPath: new.bundle), version: new.version)
            } else {
                diff = try VersionDiff(of: target.url, from: from, to: to)
            }
            if output.json {
                try Console.printJSON(diff)
            } else {
                let lines = ChangeLines.lines(
                    from: ChangeLines.side(diff.from, in: diff.fromBundle),
                    to: ChangeLines.side(diff.to, in: diff.toBundle),
                    changes: diff.changes, blobs: diff.blobs)
                Console.write(Data(lines.map { $0 + "\n" }.joined().utf8))
            }
            if !diff.isEmpty { throw ExitCode(1) }
        }
    }
}
