import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the value at a JSON path, as one new version.",
            discussion: """
                VALUE is read as JSON where it parses (42, true, null, {"title": "x"}), otherwise \
                as a string; --string always takes it as a string. The result is checked against \
                the document's schema and completed (a new task gets an id); an invalid result \
                is refused and nothing is saved. tasks[+] appends. VALUE - reads the JSON from \
                standard input (with --string, its text).
                """)

        @OptionGroup var target: BundleArgument
        @Argument(help: "A path such as name, tasks[0].title, tasks[+] or tasks[*].status.")
        var path: String
        @Argument(help: "The new value, or - to read it from standard input.")
        var value: String
        @Flag(help: "Take VALUE as a string even if it parses as JSON.")
        var string = false
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let jsonPath = try JSONPath(parsing: path)
            let newValue =
                value == "-"
                ? try JSONValue.read(fromFileDescriptor: STDIN_FILENO, asString: string)
                : string ? JSONValue.string(value) : JSONValue.parseArgument(value)
            let outcome = try BundleEdits.set(
                newValue, at: jsonPath, in: target.url, metadata: edit.metadata(defaultMessage: "Set \(jsonPath)"))
            try EditReport(outcome, dryRun: edit.dryRun).print(json: output.json, bundle: target.bundle)
        }
    }
}
