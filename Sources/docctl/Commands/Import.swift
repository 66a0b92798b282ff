import ArgumentParser
import DocumentKit
import Foundation

extension DocCtl {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a new bundle from a folder, a zip or tar, or a JSON file holding a document.",
            discussion: """
                The source needs document.json (and blobs/<sha-256> for its blobs), as export writes \
                them. A document of an older schema (an export of an old version, say) is migrated \
                when --schema names it.
                """)

        @Argument(help: "The folder, archive or JSON file to read.", completion: .file())
        var source: String
        @Option(name: .shortAndLong, help: "The bundle to create.")
        var output: String
        @Option(help: "The schema the source was written with, e.g. 1.0.0 (default: this build's).")
        var schema: String?
        @OptionGroup var force: ForceOption
        @OptionGroup var edit: EditOptions
        @OptionGroup var options: OutputOptions

        func run() throws {
            let sourceURL = URL(fileURLWithPath: source)
            let version = try BundleImporter.importDocument(from: sourceURL, to: URL(fileURLWithPath: output), schema: schema,
                                                            metadata: edit.metadata(defaultMessage: "Import \(sourceURL.lastPathComponent)"), replace: force.force)
            let summary = VersionSummary(version)
            if options.json { return try Console.printJSON(summary) }
            Console.print("imported \(source) into \(output) at \(Console.version(summary))")
        }
    }
}
