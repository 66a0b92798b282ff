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
                Export a version as ordinary files: zip, tar, tar.gz, tar.zst, a folder, a BagIt bag, the JSON \
                alone, or an HTML site to read it by.
                """,
            discussion:
                """
                Blobs are named as they were attached (blobs/photo.png). A bag (--format bagit, RFC 8493) is a \
                folder of the version's files under data/ with SHA-256 and SHA-512 manifests; with --all-versions, \
                of every version, each distinct file once, which import restores whole, every version with its id; \
                --with-html adds the HTML site under data/access/. An HTML export (--format html) is an access \
                copy: a static site (index.html) that any browser opens from the folder, with no server, network \
                or script needed, showing the document (as its type renders it, else its JSON as a tree), its \
                files, and the history with each version's changes and signature as verify finds it (--trusted \
                names the signers); --all-versions adds every version's document. It is a folder, or a zip when \
                the name ends in .zip. The output is never replaced unless --force is given; a symbolic link at \
                the output is replaced, not written through. A file that does not match the digest its version \
                records is refused (65), and nothing is written. -o - writes a zip, a tar, the JSON or the site \
                (a zip) to standard output. Without --format, a name ending in .zip, .tar, .tar.gz (.tgz), \
                .tar.zst (.tzst) or .json says the format, and one ending in .html (a folder) or .html.zip the site.
                """
        )

        @OptionGroup var target: BundleArgument
        @Option(
            help:
                """
                zip, tar, tar.gz, tar.zst, dir, json, bagit or html (default: the output's extension, else the \
                bundle's export.format from '\(DocumentTool.name) state', else yours from \
                '\(DocumentTool.name) config').
                """
        )
        var format: ExportFormat?
        @Option(name: .shortAndLong, help: "The file or folder to create, or - for standard output.")
        var output: String
        @OptionGroup var version: VersionOption
        @Flag(help: "Every version: in a bag (--format bagit), or each version's document in a site (html).")
        var allVersions = false
        @Flag(help: "With --format bagit: add the HTML site, an access copy, under data/access/.")
        var withHTML = false
        @Option(
            help: ArgumentHelp(
                "The trusted signers who name each version's signer in a site (default: yours, as verify's).",
                valueName: "FILE"), completion: .file())
        var trusted: String?
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
                    target.url, version: version.name, format: format, toFileDescriptor: STDOUT_FILENO,
                    trusted: try signers(for: format))
                return
            }
            if allVersions, ![.bagit, .html].contains(format) {
                throw DocumentKitError(.usage, "--all-versions goes with --format bagit or html")
            }
            if withHTML, format != .bagit {
                throw DocumentKitError(
                    .usage,
                    format == .html
                        ? "--with-html adds a site to a bag: --format html writes the site alone"
                        : "--with-html goes with --format bagit")
            }
            if allVersions, version.name != nil {
                throw DocumentKitError(.usage, "--all-versions exports every version: leave out --version")
            }
            let result = try BundleExporter.export(
                target.url, version: version.name, format: format,
                to: URL(fileURLWithPath: output), replace: force.force, allVersions: allVersions, dryRun: dryRun.dryRun,
                accessCopy: withHTML, trusted: try signers(for: format))
            if options.json { return try Console.printJSON(result) }
            let done = dryRun.dryRun ? "would export" : "exported"
            let open = BundleExporter.entryPage(of: format, at: URL(fileURLWithPath: output)).map {
                "; open \($0.relativePath)"
            }
            let nothing = dryRun.dryRun ? "; nothing was written" : open ?? ""
            Console.print(
                """
                \(done) \(allVersions ? "every version" : "version \(result.version)") of \(target.bundle) to \
                \(output) (\(format.rawValue), \(result.files) file\(result.files == 1 ? "" : "s"), \
                \(ByteCount.readable(result.bytes)))\(nothing)
                """
            )
        }

        /// The trusted signers a site names signers by: those given, else the user's (as
        /// verify's); none for a format that shows no signature.
        private func signers(for format: ExportFormat) throws -> TrustedSigners? {
            guard format == .html || withHTML else {
                if trusted != nil {
                    throw DocumentKitError(.usage, "--trusted names signers in a site: it goes with --format html")
                }
                return nil
            }
            return try TrustedSigners.named(trusted, ownKeyName: TrustedSigners.exporterName)
        }
    }
}
