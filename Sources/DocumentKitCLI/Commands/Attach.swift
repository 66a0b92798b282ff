import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Attach: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "attach",
            abstract: "Store a file as a blob and refer to it from the document, as one new version.",
            discussion:
                """
                Without --as, a project's attachment becomes its thumbnail; any other goes where --as names a \
                place for a blob, such as a task's attachments: --as 'tasks[0].attachments[+]'. FILE - reads \
                standard input, with --name naming it; the blob's media type is guessed from its name unless \
                --media-type gives it.
                """
        )

        @OptionGroup var target: BundleArgument
        @Argument(help: "The file to attach, or - for standard input.", completion: .file())
        var file: String
        @Option(
            name: .customLong("as"),
            help: "The JSON path to refer to it from (default: thumbnail), e.g. 'tasks[0].attachments[+]'.")
        var path: String?
        @Option(help: "The name it is recorded and exported with (default: the file's; needed with -).")
        var name: String?
        @Option(name: .customLong("media-type"), help: "Its MIME type (default: guessed from its name).")
        var mediaType: String?
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let jsonPath = try path.map(JSONPath.init(parsing:))
            let outcome: BundleEdits.Outcome
            if file == "-" {
                guard let name else {
                    throw DocumentKitError(.usage, "attach - reads standard input: name it with --name")
                }
                let input = try SpooledInput(reading: STDIN_FILENO, named: name, beside: target.url)
                outcome = try BundleEdits.attach(
                    input, at: jsonPath, name: name, mediaType: mediaType, in: target.url,
                    metadata: edit.metadata(defaultMessage: "Attach \(name)"))
            } else {
                let name = name ?? URL(fileURLWithPath: file).lastPathComponent
                outcome = try BundleEdits.attach(
                    URL(fileURLWithPath: file), at: jsonPath, name: name, mediaType: mediaType, in: target.url,
                    metadata: edit.metadata(defaultMessage: "Attach \(name)"))
            }
            try EditReport(outcome, dryRun: edit.dryRun).print(json: output.json, bundle: target.bundle)
        }
    }
}
