import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Migrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "migrate",
            abstract: "Upgrade the document to this build's schema, as one new version.",
            discussion: """
                A head written with an older schema is migrated through the stages of its type's \
                migration plan, which are listed in the order they ran; the versions before stay as \
                they were. A current head is left alone. A newer schema than this build knows is \
                refused. --dry-run lists the stages and writes nothing.
                """)

        @OptionGroup var target: BundleArgument
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let report = try BundleMigrator.migrate(
                target.url, dryRun: edit.dryRun, author: try Authorship.author(edit.author), message: edit.message)
            if output.json { return try Console.printJSON(report) }
            if report.from == report.to {
                return Console.print("\(target.bundle) is at schema \(report.to) already: nothing to migrate")
            }
            if let version = report.version {
                Console.print(
                    """
                    migrated \(target.bundle) from schema \(report.from) to \(report.to): saved \
                    \(Console.version(version))
                    """
                )
            } else {
                Console.print(
                    "would migrate \(target.bundle) from schema \(report.from) to \(report.to); nothing was written")
            }
            let width = report.stages.map(\.id.count).max() ?? 0
            for stage in report.stages {
                let kind = stage.kind.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                Console.print(
                    """
                      \(stage.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(kind)  \(stage.from) → \
                    \(stage.to)
                    """
                )
            }
        }
    }
}
