import DocumentKitCLI
import DocumentKitS3
import Foundation
import SampleProject

// docctl with an S3 client: docctl runs this program, with the same arguments, for the
// commands on s3:// remotes, so that its other commands start without the HTTP stack.
// Credentials, region and endpoint come from this process's environment and ~/.aws, in the
// home folder docctl's own settings use ($HOME first), as the AWS tools find it.
let environment = ProcessInfo.processInfo.environment
DocumentTool.run(name: "docctl", types: [Project.self]) { bucket, prefix, connection in
    try S3RemoteStore.standard(
        bucket: bucket, prefix: prefix, endpoint: connection.endpoint, timeout: connection.timeout,
        retries: connection.retries,
        retryBudget: connection.retryBudget, jobs: connection.jobs, environment: environment,
        home: DocumentTool.homeFolder(environment: environment))
}
