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
                OCFL object id (documentkit: and the id of its first version).
                """)

        @Argument(help: "The remote: a folder, or s3://BUCKET/PREFIX.", completion: .directory)
        var remote: String
        @Option(name: .shortAndLong, help: ArgumentHelp("The new bundle.", valueName: "BUNDLE"), completion: .file())
        var output: String
        @Option(help: ArgumentHelp("The project to clone, by OCFL object id, when the remote holds several.", valueName: "ID"))
        var object: String?
        @Flag(help: "Replace the output if it exists.")
        var force = false
        @OptionGroup var remoteOptions: RemoteOptions
        @OptionGroup var dryRun: DryRunOption
        @OptionGroup var options: OutputOptions

        func run() throws {
            let store = try RemoteLocation(remote).open(endpoint: remoteOptions.endpoint)
            if dryRun.dryRun {
                let plan = try RemoteFetcher.plannedClone(store, objectID: object, to: URL(fileURLWithPath: output), replace: force)
                if options.json { return try Console.printJSON(PlannedImport(objectID: plan.objectID, versions: plan.versions)) }
                return Console.print("would clone \(remote) into \(output): object \(plan.objectID), \(plan.versions) version\(plan.versions == 1 ? "" : "s"); nothing was written")
            }
            let result = try RemoteFetcher.clone(store, objectID: object, to: URL(fileURLWithPath: output), replace: force)
            if options.json { return try Console.printJSON(result) }
            Console.print("cloned \(remote) into \(output): \(result.versions) version\(result.versions == 1 ? "" : "s"), head \(result.head.prefix(12))")
        }
    }
}

/// `clone --dry-run --json` and `import OBJECT --dry-run --json`: the project they would make.
struct PlannedImport: Encodable {
    var objectID: String
    var versions: Int
    var dryRun = true
}
