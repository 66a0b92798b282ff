import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print the value at a JSON path.",
            discussion: "Strings print as plain text, other values as JSON; --json prints strings as JSON too.")

        @OptionGroup var target: BundleArgument
        @Argument(help: "A path such as name, tasks[0].title, tasks[-1] or tasks[id=UUID].")
        var path: String
        @OptionGroup var version: VersionOption
        @OptionGroup var output: OutputOptions

        func run() throws {
            let value = try BundleLookup.value(at: JSONPath(parsing: path), in: target.url, version: version.name)
            if case .string(let text) = value, !output.json {
                Console.print(text)
            } else {
                Console.print(value.jsonText())
            }
        }
    }
}
