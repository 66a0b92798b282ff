import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Pack: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pack",
            abstract: "Write a compact copy of a bundle, every version kept, to send or archive.",
            discussion: """
                The copy holds every version, object and the bundle's state, and none of the bytes \
                that saves in place leave behind, so that tools reading it from a pipe see the \
                current document. The bundle is only read; the output is never replaced unless \
                --force is given.
                """)

        @OptionGroup var target: BundleArgument
        @Option(name: .shortAndLong, help: "The bundle file to create.")
        var output: String
        @OptionGroup var force: ForceOption
        @OptionGroup var dryRun: DryRunOption
        @OptionGroup var options: OutputOptions

        func run() throws {
            let result = try BundlePacker.pack(
                target.url, to: URL(fileURLWithPath: output), replace: force.force, dryRun: dryRun.dryRun)
            if options.json { return try Console.printJSON(result) }
            if dryRun.dryRun {
                return Console.print(
                    """
                    would pack \(target.bundle) to \(output) (\(result.versions) \
                    version\(result.versions == 1 ? "" : "s"), about \(ByteCount.readable(result.bytes)); \
                    \(ByteCount.readable(result.reclaimedBytes)) left out); nothing was written
                    """
                )
            }
            Console.print(
                """
                packed \(target.bundle) to \(output) (\(result.versions) \
                version\(result.versions == 1 ? "" : "s"), \(ByteCount.readable(result.bytes)); \
                \(ByteCount.readable(result.reclaimedBytes)) left out)
                """
            )
        }
    }
}
