import ArgumentParser
import DocumentKit
import Foundation

extension ExportFormat: ExpressibleByArgument {}

extension DocumentTool {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract:
                """
                Export a version as ordinary files: zip, tar, tar.gz, tar.zst, a folder, a BagIt bag, or the JSON \
                alone.
                """,
            discussion:
                """
                Blobs are named as they were attached (blobs/photo.png). A bag (--format bagit, RFC 8493) is a \
                folder of the version's files under data/ with SHA-256 and SHA-512 manifests; with --all-versions, \
                of every version, each distinct file once, which import restores whole, every version with its id. \
                The output is never replaced unless --force is given; a symbolic link at the output is replaced, \
                not written through. A file that does not match the digest its version records is refused (65), \
                and nothing is written. -o - writes a zip, a tar or the JSON to standard output. Without --format, \
                a name ending in .zip, .tar, .tar.gz (.tgz), .tar.zst (.tzst) or .json says the format.
                """
        )

        @OptionGroup var target: BundleArgument
        @Option(
            help:
                """
                zip, tar, tar.gz, tar.zst, dir, json or bagit (default: the output's extension, else the bundle's \
                export.format from '\(DocumentTool.name) state', else yours from '\(DocumentTool.name) config').
                """
        )
        var format: ExportFormat?
        @Option(name: .shortAndLong, help: "The file or folder to create, or - for standard output.")
        var output: String
        @OptionGroup var version: VersionOption
        @Flag(help: "Every version, in a bag (--format bagit).")
        var allVersions = false
        @OptionGroup var force: ForceOption
        @OptionGroup var dryRun: DryRunOption
        @OptionGroup var options: OutputOptions

        func run() throws {
            let format = try format ?? ExportFormat(fileName: output) ?? ExportFormat.remembered(for: target.url)
            // What the library refuses in its own words is said here in the options'.
            if output == "-", !dryRun.dryRun {
                if options.json {
                    throw DocumentKitError(.usage, "--json and -o - would both write to standard output")
                }
                if allVersions {
                    throw DocumentKitError(
                        .usage, "--all-versions writes a bag, a folder: name one with -o, not standard output")
                }
                if [.dir, .bagit].contains(format) {
                    throw DocumentKitError(
                        .usage, "--format \(format.rawValue) writes a folder: name one with -o, not standard output")
                }
                _ = try BundleExporter.export(
                    target.url, version: version.name, format: format, toFileDescriptor: STDOUT_FILENO)
                return
            }
            if allVersions, format != .bagit {
                throw DocumentKitError(.usage, "--all-versions goes with --format bagit")
            }
            if allVersions, version.name != nil {
                throw DocumentKitError(.usage, "--all-versions exports every version: leave out --version")
            }
            let result = try BundleExporter.export(
                target.url, version: version.name, format: format,
                to: URL(fileURLWithPath: output), replace: force.force, allVersions: allVersions, dryRun: dryRun.dryRun)
            if options.json { return try Console.printJSON(result) }
            let done = dryRun.dryRun ? "would export" : "exported"
            let nothing = dryRun.dryRun ? "; nothing was written" : ""
            Console.print(
                """
                \(done) \(allVersions ? "every version" : "version \(result.version)") of \(target.bundle) to \
                \(output) (\(format.rawValue), \(result.files) file\(result.files == 1 ? "" : "s"), \
                \(Console.bytes(result.bytes)))\(nothing)
                """
            )
        }
    }
}
