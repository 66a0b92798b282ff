import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Attach: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "attach",
            abstract: "Store a file as a blob and refer to it from the document, as one new version.",
            discussion: "Without --as, a project's attachment becomes its thumbnail.")

        @OptionGroup var target: BundleArgument
        @Argument(help: "The file to attach.", completion: .file())
        var file: String
        @Option(name: .customLong("as"), help: "The JSON path to refer to it from.")
        var path: String?
        @Option(name: .customLong("media-type"), help: "Its MIME type (default: guessed from its extension).")
        var mediaType: String?
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let jsonPath = try path.map(JSONPath.init(parsing:))
            let fileURL = URL(fileURLWithPath: file)
            let outcome = try BundleEditor.attach(fileURL, at: jsonPath, mediaType: mediaType, in: target.url,
                                                  metadata: edit.metadata(defaultMessage: "Attach \(fileURL.lastPathComponent)"))
            try EditReport(outcome).print(json: output.json, bundle: target.bundle)
        }
    }
}
