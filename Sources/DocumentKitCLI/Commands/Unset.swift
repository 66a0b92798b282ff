import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unset", abstract: "Remove an optional field or an array element, as one new version.")

        @OptionGroup var target: BundleArgument
        @Argument(help: "A path such as thumbnail or tasks[2].")
        var path: String
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let jsonPath = try JSONPath(parsing: path)
            let outcome = try BundleEditor.remove(at: jsonPath, in: target.url, metadata: edit.metadata(defaultMessage: "Remove \(jsonPath)"))
            try EditReport(outcome, dryRun: edit.dryRun).print(json: output.json, bundle: target.bundle)
        }
    }
}
