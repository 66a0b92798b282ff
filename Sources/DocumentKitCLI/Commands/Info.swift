import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            abstract: "Show a bundle's type, head version and size.",
            discussion: """
                With several bundles, each is shown in turn, headed by its path and separated by an \
                empty line; --json then prints an array. A bundle that cannot be read gets its error \
                line and the others are still shown; the exit status is then the first such error's.
                """)

        @Argument(help: "The bundles (.dkproj) to show.", completion: .file())
        var bundles: [String]
        @OptionGroup var output: OutputOptions

        func run() throws {
            var summaries: [BundleSummary] = []
            var failure: Int32?
            for bundle in bundles {
                let info: BundleSummary
                do {
                    info = try BundleSummary(of: URL(fileURLWithPath: bundle))
                } catch let error as DocumentKitError {
                    Console.printError(error.described(byTool: DocumentTool.name))
                    failure = failure ?? error.exitStatus
                    continue
                }
                // Text is printed as each bundle is read, so that it and the error lines
                // come out in the order of the arguments.
                if !output.json { Console.print((summaries.isEmpty ? "" : "\n") + Self.describe(info)) }
                summaries.append(info)
            }
            if output.json {
                if bundles.count == 1, let info = summaries.first {
                    try Console.printJSON(info)
                } else if bundles.count > 1 {
                    try Console.printJSON(summaries)
                }
            }
            if let failure { throw ExitCode(failure) }
        }

        /// A bundle's summary as lines of text, the first naming it.
        static func describe(_ info: BundleSummary) -> String {
            let stateLine =
                info.stateKeys.map { "\($0) key\($0 == 1 ? "" : "s")" }
                ?? "unreadable (see \(DocumentTool.name) validate)"
            let blobs = "\(info.blobCount) blob\(info.blobCount == 1 ? "" : "s")"
            let reclaimable =
                info.reclaimableBytes > 0 ? ", \(ByteCount.readable(info.reclaimableBytes)) reclaimable" : ""
            return """
                bundle:    \(info.path)
                type:      \(info.contentType) (\(info.mimeType)), format \(info.formatVersion)
                head:      \(Console.version(info.head)), \(info.head.created) by \(info.head.author): \
                \(info.head.message)
                schema:    \(info.head.schema)
                versions:  \(info.versionCount)
                objects:   \(info.objectCount), \(ByteCount.readable(info.objectBytes)) \
                (\(ByteCount.readable(info.storedBytes)) stored)
                document:  \(ByteCount.readable(info.documentBytes)), \(blobs)
                state:     \(stateLine)
                file:      \(ByteCount.readable(info.fileBytes))\(reclaimable)
                """
        }
    }
}
