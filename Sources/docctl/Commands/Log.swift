import ArgumentParser
import DocumentKit
import Foundation

extension DocCtl {
    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a bundle's versions, newest first.")

        @OptionGroup var target: BundleArgument
        @Option(name: [.customShort("n"), .customLong("max-count")], help: "Show at most N versions.")
        var count: Int?
        @OptionGroup var output: OutputOptions

        func run() throws {
            let versions = try BundleSummary.log(of: target.url, limit: count)
            if output.json { return try Console.printJSON(versions) }
            for version in versions {
                Console.print("\(version.number)  \(version.id.prefix(12))  \(version.created)  \(version.author)  \(version.message)")
            }
        }
    }
}
