import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Cat: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cat",
            abstract: "Print a version's document JSON (default: the head).",
            discussion: "The document is printed only once it matches the digest its version records: a stale or damaged document.json is refused (65), and nothing is printed.")

        @OptionGroup var target: BundleArgument
        @OptionGroup var version: VersionOption

        func run() throws {
            Console.write(try BundleLookup.documentData(of: target.url, version: version.name))
        }
    }
}
