import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "Print the value at a JSON path.",
            discussion: """
                Strings print as plain text, other values as JSON; --json prints strings as JSON too. \
                A path with [*] (tasks[*].title) prints every value it reaches, one per line (other \
                values as one-line JSON), or with --json one array of them; elements where the rest \
                of the path names nothing are skipped, and a path that reaches nothing is an error.
                """)

        @OptionGroup var target: BundleArgument
        @Argument(help: "A path such as name, tasks[0].title, tasks[-1], tasks[id=UUID] or tasks[*].title.")
        var path: String
        @OptionGroup var version: VersionOption
        @OptionGroup var output: OutputOptions

        func run() throws {
            let jsonPath = try JSONPath(parsing: path)
            guard jsonPath.hasWildcard else {
                let value = try BundleLookup.value(at: jsonPath, in: target.url, version: version.name)
                if case .string(let text) = value, !output.json {
                    Console.print(text)
                } else {
                    Console.print(value.jsonText())
                }
                return
            }
            // Several values: one line each, as jq -r prints them, or one JSON array.
            let values = try BundleLookup.values(at: jsonPath, in: target.url, version: version.name)
            if output.json { return Console.print(JSONValue.array(values).jsonText()) }
            let lines = values.map { value in
                if case .string(let text) = value { text } else { value.jsonText(pretty: false) }
            }
            Console.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}
