import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract",
            abstract: "Write a blob (or any value, as JSON) out to a file.",
            discussion:
                """
                The output is never replaced unless --force is given; a symbolic link at the output is replaced, \
                not written through. -o - writes to standard output. A blob that does not match its digest is \
                refused (65), and nothing is written.
                """
        )

        @OptionGroup var target: BundleArgument
        @Argument(help: "The JSON path of a blob reference, such as thumbnail.")
        var path: String
        @Option(name: .shortAndLong, help: "The file to write, or - for standard output.")
        var output: String
        @OptionGroup var version: VersionOption
        @OptionGroup var force: ForceOption
        @OptionGroup var dryRun: DryRunOption
        @OptionGroup var format: OutputOptions

        func run() throws {
            let jsonPath = try JSONPath(parsing: path)
            if output == "-", !dryRun.dryRun {
                if format.json { throw DocumentKitError(.usage, "--json and -o - would both write to standard output") }
                return try BundleLookup.extract(jsonPath, from: target.url, version: version.name) {
                    Console.write(Data($0))
                }
            }
            let bytes = try BundleLookup.extract(
                jsonPath, from: target.url, version: version.name, to: URL(fileURLWithPath: output),
                replace: force.force,
                dryRun: dryRun.dryRun)
            if format.json { return try Console.printJSON(ExtractReport(output: output, bytes: bytes)) }
            Console.print(
                dryRun.dryRun
                    ? "would write \(bytes) bytes to \(output); nothing was written"
                    : "wrote \(bytes) bytes to \(output)")
        }
    }
}

/// What `docctl extract --json` prints.
struct ExtractReport: Codable {
    var output: String
    var bytes: UInt64
}
