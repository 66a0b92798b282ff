import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Archive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive",
            abstract: "Write a bundle's whole history into an OCFL 1.1 storage root.",
            discussion: """
                The root is created when missing or empty (layout 0004-hashed-n-tuple-storage-layout); \
                a folder holding anything else is refused. The project is one OCFL object, whose \
                id is documentkit: and the id of its first version; each archive adds one OCFL \
                version, holding the bundle's history as the bundle stores it (its head's document \
                aside). Archiving again adds only the versions the object lacks and never changes \
                an OCFL version once written; versions pruned from the bundle stay in the earlier \
                ones. A bundle whose history \
                diverged from the object's is refused. An archive is a push to a folder (see \
                'push'): the root is valid OCFL at every instant, and an archive that was \
                interrupted is completed by the next. 'import OBJECT -o BUNDLE' rebuilds the \
                bundle. With --with-html the version added also holds an access copy, the head's \
                HTML site (as 'export --format html' writes it), under access/; a bundle archived \
                already gets a version for its access copy alone. Without it, a version holds no \
                access copy. See FORMAT.md, sections 10 and 11.
                """)

        @OptionGroup var target: BundleArgument
        @Argument(help: "The OCFL storage root.", completion: .directory)
        var root: String
        @Flag(help: "Add the head's HTML site, an access copy, under access/ in the version.")
        var withHTML = false
        @Option(
            help: ArgumentHelp(
                "With --with-html: the trusted signers who name each version's signer (default: yours).",
                valueName: "FILE"), completion: .file())
        var trusted: String?
        @OptionGroup var dryRun: DryRunOption
        @OptionGroup var options: OutputOptions

        func run() throws {
            if trusted != nil, !withHTML {
                throw DocumentKitError(.usage, "--trusted names signers in an access copy: it goes with --with-html")
            }
            let accessCopy =
                withHTML
                ? OCFLDeposit.AccessCopy.htmlSite(
                    trusted: try TrustedSigners.named(trusted, ownKeyName: TrustedSigners.exporterName)) : nil
            let store = CountedRemoteStore.counting(FolderRemoteStore(root: URL(fileURLWithPath: root)))
            let result = try OCFLDeposit.deposit(
                target.url, into: store, dryRun: dryRun.dryRun, accessCopy: accessCopy)
            if options.json {
                return try Console.printJSON(ArchiveReport(bundle: target.bundle, root: root, result: result))
            }
            let count = result.newVersionIDs.count
            let versions =
                count == 0
                ? "no new versions (it has \(result.totalVersions))"
                : "\(count) new version\(count == 1 ? "" : "s") in \(result.newVersions.first ?? "")"
            let files = "\(result.filesStored) file\(result.filesStored == 1 ? "" : "s")"
            let access = result.accessCopy.map { "; an access copy, \($0)" } ?? ""
            if dryRun.dryRun {
                return Console.print(
                    """
                    would archive \(target.bundle) to \(root): object \(result.objectID), \(versions), \(files) \
                    (\(ByteCount.readable(result.bytesStored))) to store\(access); nothing was written
                    """
                )
            }
            Console.print(
                "archived \(target.bundle) to \(root): object \(result.objectID), \(versions), \(files) stored\(access)"
            )
        }
    }

    /// `archive --json`.
    struct ArchiveReport: Codable {
        var bundle: String
        var root: String
        var result: OCFLDeposit.Result

        private enum CodingKeys: String, CodingKey {
            case bundle, root, objectID, objectPath, createdObject, newVersions, newVersionIDs, totalVersions,
                filesStored, bytesStored, accessCopy
        }

        init(bundle: String, root: String, result: OCFLDeposit.Result) {
            self.bundle = bundle
            self.root = root
            self.result = result
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            bundle = try container.decode(String.self, forKey: .bundle)
            root = try container.decode(String.self, forKey: .root)
            result = try OCFLDeposit.Result(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bundle, forKey: .bundle)
            try container.encode(root, forKey: .root)
            try result.encode(to: encoder)
        }
    }
}
