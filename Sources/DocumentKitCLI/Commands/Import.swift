import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                """
                Make a new bundle from a folder, a zip or tar, or a JSON file holding a document; or import drafts \
                from a UserDefaults export.
                """,
            usage: """
                \(DocumentTool.name) import <source> --output <output> [--schema <schema>] [--force] \
                [--message <message>] [--author <author>] [--json]
                \(DocumentTool.name) import --legacy-defaults <file> (<bundle> | --output <output> [--name <name>] \
                [--force]) [--dry-run] [--message <message>] [--author <author>] [--json]
                """,
            discussion: """
                The source needs document.json (and blobs/ holding its blobs), as export writes \
                them. A BagIt bag is checked first (every payload file against its manifests; 65 if \
                one differs, is missing or is extra), then its data/ is imported; a bag of every version \
                (export --all-versions) is imported whole, every version with its id, as an OCFL \
                object is. A document of an older schema (an export of an old version, say) is migrated \
                when --schema names it. A document larger than 64 MiB is refused before it is read. \
                SOURCE - reads a zip, a tar \
                (plain or compressed) or a JSON document from standard input.

                \(LegacyDefaultsOptions.discussion)
                """)

        @Argument(
            help:
                """
                The folder, archive or JSON file to read, or - for standard input; with --legacy-defaults, the \
                bundle to add to.
                """,
            completion: .file())
        var source: String?
        @Option(name: .shortAndLong, help: "The bundle to create.")
        var output: String?
        @Option(help: "The schema the source was written with, e.g. 1.0.0 (default: this build's).")
        var schema: String?
        @OptionGroup var legacy: LegacyDefaultsOptions
        @OptionGroup var force: ForceOption
        @OptionGroup var layout: LayoutOption
        @OptionGroup var edit: EditOptions
        @OptionGroup var options: OutputOptions

        func validate() throws {
            if legacy.file != nil { return try validateLegacyDefaults() }
            guard source != nil else { throw ValidationError("Missing expected argument '<source>'") }
            guard output != nil else { throw ValidationError("Missing expected argument '--output <output>'") }
            if legacy.name != nil { throw ValidationError("--name goes with --legacy-defaults") }
        }

        func run() throws {
            if let file = legacy.file { return try importLegacyDefaults(from: file) }
            guard let source, let output else { throw ValidationError("Missing expected argument '<source>'") }
            let sourceURL = URL(fileURLWithPath: source)
            let version: BundleVersion
            if source == "-" {
                version = try BundleImporter.importDocument(
                    fromFileDescriptor: STDIN_FILENO, to: URL(fileURLWithPath: output),
                    type: try DocumentTool.newDocumentType(),
                    schema: schema,
                    metadata: layout.applied(to: edit.metadata(defaultMessage: "Import from standard input")),
                    replace: force.force)
            } else if OCFLImporter.isObject(sourceURL) {
                return try importOCFLObject(from: sourceURL, to: output)
            } else if BagImporter.holdsHistory(sourceURL) {
                return try importBagHistory(from: sourceURL, to: output)
            } else {
                version = try BundleImporter.importDocument(
                    from: sourceURL, to: URL(fileURLWithPath: output), type: try DocumentTool.newDocumentType(),
                    schema: schema,
                    metadata: layout.applied(
                        to: edit.metadata(defaultMessage: "Import \(sourceURL.lastPathComponent)")),
                    replace: force.force)
            }
            let summary = VersionSummary(version)
            if options.json { return try Console.printJSON(summary) }
            Console.print(
                edit.dryRun
                    ? "would import \(source) into \(output) at \(Console.version(summary)); nothing was written"
                    : "imported \(source) into \(output) at \(Console.version(summary))")
        }
    }
}
