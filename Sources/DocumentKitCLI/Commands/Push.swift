import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Push: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Send a bundle's versions to a remote: a folder or s3://bucket/prefix.",
            discussion: """
                The remote is an OCFL 1.1 storage root (FORMAT.md, section 11), made when it is empty: the \
                project is one object and each push one OCFL version holding its history, so a \
                backup is also an archive. Only files the remote lacks are sent, each once; a push that was \
                interrupted sends again only what had not arrived. The remote's head moves last, \
                in one compare-and-swap: when another push moved it first, or the remote holds \
                versions this bundle lacks, nothing is pushed (exit status 75): pull from the \
                remote, then push again. S3 credentials come from AWS_ACCESS_KEY_ID and \
                AWS_SECRET_ACCESS_KEY or ~/.aws/credentials (AWS_PROFILE), and are never printed.
                """)

        @OptionGroup var target: BundleArgument
        @Argument(
            help:
                "The remote: a folder, or s3://BUCKET/PREFIX (default: the bundle's remote.default, which clone sets).",
            completion: .directory)
        var remote = ""
        @Flag(help: "Add the project to a remote that holds another project (a clone then needs --object).")
        var newProject = false
        @OptionGroup var remoteOptions: RemoteOptions
        @OptionGroup var dryRun: DryRunOption
        @OptionGroup var output: OutputOptions

        mutating func run() throws {
            remote = try RemoteLocation.remembered(remote, for: target.url)
            let connection = remoteOptions.connection()
            let store = try RemoteLocation(remote).open(connection)
            let result: RemotePusher.Result
            do {
                result = try RemotePusher.push(
                    target.url, to: store, newProject: newProject, dryRun: dryRun.dryRun, jobs: connection.transfers)
            } catch var error as DocumentKitError where error.code == .unavailable && !dryRun.dryRun {
                // A push that lost its connection resumes: what arrived is not sent again.
                error.message += "; run push again to resume"
                throw error
            }
            if output.json {
                return try Console.printJSON(
                    PushReport(bundle: target.bundle, remote: remote, result: result, retries: store.retries))
            }
            let count = result.newVersionIDs.count
            let added = "\(count) new version\(count == 1 ? "" : "s") in \(result.newVersions.first ?? "")"
            switch result.result {
            case .upToDate:
                Console.print(
                    """
                    \(remote) is up to date with \(target.bundle) (\(result.totalVersions) \
                    version\(result.totalVersions == 1 ? "" : "s"), head \(result.head.prefix(12)))
                    """
                )
            case .wouldCreate, .wouldPush:
                Console.print(
                    """
                    would push \(target.bundle) to \(remote): \(added), \(result.filesSent) \
                    file\(result.filesSent == 1 ? "" : "s") (\(ByteCount.readable(result.bytesSent))) to send; nothing \
                    was written
                    """
                )
            case .created, .pushed:
                let resumed =
                    result.filesResumed == 0 ? "" : ", \(result.filesResumed) already there from an interrupted push"
                Console.print(
                    """
                    pushed \(target.bundle) to \(remote): \(added), \(result.filesSent) \
                    file\(result.filesSent == 1 ? "" : "s") (\(ByteCount.readable(result.bytesSent))) sent\(resumed)
                    """
                )
            }
        }
    }

    /// `push --json`: the bundle, the remote, what the push did, and how many requests
    /// were tried again.
    struct PushReport: Encodable {
        var bundle: String
        var remote: String
        var result: RemotePusher.Result
        var retries: Int

        private enum CodingKeys: String, CodingKey { case bundle, remote, retries }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bundle, forKey: .bundle)
            try container.encode(remote, forKey: .remote)
            try container.encode(retries, forKey: .retries)
            try result.encode(to: encoder)
        }
    }
}
