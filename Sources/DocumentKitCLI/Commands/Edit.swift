import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Edit the document, or the value at a JSON path, in your text editor.",
            discussion: """
                Opens the document (or the value at PATH) as JSON in $VISUAL, else $EDITOR, else \
                vi, run by /bin/sh so the command may have arguments, and saves it as one new \
                version when the editor exits; saved unchanged, it saves nothing. Text that is not \
                JSON, or that the schema refuses, reopens with the error in '#' lines at the top; \
                to abort, empty the file or quit the editor with an error (:cq in vi). If the \
                bundle changed meanwhile, nothing is saved. Whenever your changes are not saved, \
                the error names the file that keeps them. Exit status: 1 aborted, 65 refused text \
                left unfixed, 75 the bundle changed.
                """)

        @OptionGroup var target: BundleArgument
        @Argument(help: "A path such as name or tasks[2] (default: the whole document).")
        var path: String?
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let jsonPath = try JSONPath(parsing: path ?? "")
            let metadata = try edit.metadata(
                defaultMessage: jsonPath.components.isEmpty ? "Edit the document" : "Edit \(jsonPath)")
            let session = DocumentEditSession(
                bundle: target.url, path: jsonPath, message: metadata.message, author: metadata.author)
            try EditReport(try session.run(), dryRun: edit.dryRun).print(json: output.json, bundle: target.bundle)
        }
    }
}
