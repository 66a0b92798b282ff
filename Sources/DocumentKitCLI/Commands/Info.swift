import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "info", abstract: "Show a bundle's type, head version and size.")

        @OptionGroup var target: BundleArgument
        @OptionGroup var output: OutputOptions

        func run() throws {
            let info = try BundleSummary(of: target.url)
            if output.json { return try Console.printJSON(info) }
            Console.print("""
                bundle:    \(info.path)
                type:      \(info.contentType) (\(info.mimeType)), format \(info.formatVersion)
                head:      \(Console.version(info.head)), \(info.head.created) by \(info.head.author): \(info.head.message)
                schema:    \(info.head.schema)
                versions:  \(info.versionCount)
                objects:   \(info.objectCount), \(Console.bytes(info.objectBytes)) (\(Console.bytes(info.storedBytes)) stored)
                document:  \(Console.bytes(info.documentBytes)), \(info.blobCount) blob\(info.blobCount == 1 ? "" : "s")
                state:     \(info.stateKeys.map { "\($0) key\($0 == 1 ? "" : "s")" } ?? "unreadable (see \(DocumentTool.name) validate)")
                file:      \(Console.bytes(info.fileBytes))\(info.reclaimableBytes > 0 ? ", \(Console.bytes(info.reclaimableBytes)) reclaimable" : "")
                """)
        }
    }
}
