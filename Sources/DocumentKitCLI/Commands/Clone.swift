import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Clone: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clone",
            abstract: "Make a new bundle from a project on a remote.",
            discussion: """
                Every version on the remote comes with its id, document and blobs; each file is \
                checked against the remote's digests first, and nothing is written if one does \
                not match. A remote that holds several projects needs --object, the project's \
                OCFL object id (documentkit: and the id of its first version). Without --output \
                the new bundle is named after the project (Garden.dkproj), in the current folder. \
                The new bundle remembers the remote (remote.default in '\(DocumentTool.name) state'): \
                push and pull without a remote use it.
                """)

        @Argument(help: "The remote: a folder, or s3://BUCKET/PREFIX.", completion: .directory)
        var remote: String
        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("The new bundle (default: the project's name, as NAME.dkproj).", valueName: "BUNDLE"),
            completion: .file())
        var output: String?
        @Option(
            help: ArgumentHelp(
                "The project to clone, by OCFL object id, when the remote holds several.", valueName: "ID"))
        var object: String?
        @Flag(help: "Replace the output if it exists.")
        var force = false
        @OptionGroup var remoteOptions: RemoteOptions
        @OptionGroup var dryRun: DryRunOption
        @OptionGroup var options: OutputOptions

        func run() throws {
            let connection = remoteOptions.connection()
            let store = try RemoteLocation(remote).open(connection)
            if dryRun.dryRun {
                // Without --output the name is the project's, known only once its document is read.
                let plan = try RemoteFetcher.plannedClone(
                    store, objectID: object, to: URL(fileURLWithPath: output ?? ".dk-clone-placeholder"), replace: force
                )
                if options.json {
                    return try Console.printJSON(PlannedImport(objectID: plan.objectID, versions: plan.versions))
                }
                return Console.print(
                    """
                    would clone \(remote) into \(output ?? "a bundle named after the project"): object \
                    \(plan.objectID), \(plan.versions) version\(plan.versions == 1 ? "" : "s"); nothing was written
                    """
                )
            }
            let bundle: URL
            let result: OCFLImporter.Result
            do {
                if let output {
                    bundle = URL(fileURLWithPath: output)
                    result = try RemoteFetcher.clone(
                        store, objectID: object, to: bundle, replace: force, jobs: connection.transfers)
                } else {
                    (bundle, result) = try RemoteFetcher.clone(
                        store, objectID: object, intoFolder: URL(fileURLWithPath: "."), replace: force,
                        jobs: connection.transfers)
                }
            } catch var error as DocumentKitError where error.code == .unavailable {
                // Nothing was written: the clone starts over.
                error.message += "; run clone again"
                throw error
            }
            try RemoteLocation.remember(remote, for: bundle)
            let written = output ?? bundle.lastPathComponent
            if options.json { return try Console.printJSON(CloneReport(result: result, retries: store.retries)) }
            Console.print(
                """
                cloned \(remote) into \(written): \(result.versions) version\(result.versions == 1 ? "" : "s"), \
                head \(result.head.prefix(12))
                """
            )
        }
    }
}

/// `clone --json`: the project made, and how many requests were tried again.
struct CloneReport: Encodable {
    var result: OCFLImporter.Result
    var retries: Int

    private enum CodingKeys: String, CodingKey { case retries }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(retries, forKey: .retries)
        try result.encode(to: encoder)
    }
}

/// `clone --dry-run --json` and `import OBJECT --dry-run --json`: the project they would make.
struct PlannedImport: Encodable {
    var objectID: String
    var versions: Int
    var dryRun = true
}
