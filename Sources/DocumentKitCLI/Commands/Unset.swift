import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unset", abstract: "Remove an optional field or an array element, as one new version.",
            discussion:
                """
                tasks[*].dueDate removes every task's due date (those that have one), in the one version; a path \
                ending in [*] is refused: set the array to [] to empty it.
                """
        )

        @OptionGroup var target: BundleArgument
        @Argument(help: "A path such as thumbnail, tasks[2] or tasks[*].dueDate.")
        var path: String
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let jsonPath = try JSONPath(parsing: path)
            let outcome = try BundleEdits.remove(
                at: jsonPath, in: target.url, metadata: edit.metadata(defaultMessage: "Remove \(jsonPath)"))
            try EditReport(outcome, dryRun: edit.dryRun).print(json: output.json, bundle: target.bundle)
        }
    }
}
