import DocumentKit
import Foundation

/// Opens a remote on S3-compatible storage: the bucket, the key prefix, and how to reach
/// it (the endpoint given with `--endpoint`, `nil` when the program's configuration
/// decides; the request timeout and retries). A tool that links an S3 client passes one
/// to ``DocumentTool/run(name:types:s3:)``.
public typealias S3RemoteOpener =
    @Sendable (_ bucket: String, _ prefix: String, _ connection: RemoteConnection) throws -> any RemoteStore
