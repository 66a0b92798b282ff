import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Cat: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cat",
            abstract: "Print a version's document JSON (default: the head).",
            discussion:
                """
                The document is printed only once it matches the digest its version records: a stale or damaged \
                document.json is refused (65), and nothing is printed. The document is JSON already: --json prints \
                it the same. With --quiet, only the exit status says whether it can be read.
                """
        )

        @OptionGroup var target: BundleArgument
        @OptionGroup var version: VersionOption
        @OptionGroup var output: OutputOptions

        func run() throws {
            let document = try BundleLookup.documentData(of: target.url, version: version.name)
            if !output.quiet { Console.write(document) }
        }
    }
}
