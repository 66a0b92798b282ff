import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Make a new version whose content equals an earlier one.",
            discussion: "Nothing is rewritten: the restored content becomes the new head, and every version stays.")

        @OptionGroup var target: BundleArgument
        @Argument(help: "The version to restore: a number, an id prefix, head or head~N.")
        var version: String
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let outcome = try BundleEdits.restore(
                version, in: target.url, metadata: edit.metadata(defaultMessage: "Restore version \(version)"))
            try EditReport(outcome, dryRun: edit.dryRun).print(json: output.json, bundle: target.bundle)
        }
    }
}
