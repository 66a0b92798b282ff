import DocumentKit
import DocumentKitCore
import Foundation

extension S3RemoteStore {
    /// What an S3 failure means to a user, in one line naming the remote (`remote`), the
    /// operation and the file (`path`, below the remote), the HTTP status and S3 code, and
    /// the retries made: the endpoint unreachable, or failing until the retries ran out
    /// (69); the keys refused (77); the bucket or the file missing (66); any other answer
    /// of the service (74). Never a secret.
    static func error(_ error: S3Error, remote: String, path: String) -> DocumentKitError {
        let asked = [error.operation, path].filter { !$0.isEmpty }.joined(separator: " ")
        switch error.kind {
        case .unreachable:
            return DocumentKitError(.unavailable, error.message, path: remote)
        case .interrupted:
            return DocumentKitError(.unavailable, "\(asked): \(error.answer)\(error.notes)", path: remote)
        case .service(let status, let code):
            if error.isAccessDenied {
                return DocumentKitError(
                    .accessDenied,
                    """
                    the service refused the credentials (\(error.answer)) on \(asked)\(error.notes): check \
                    AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or ~/.aws/credentials) and the keys' permissions \
                    on the bucket
                    """,
                    path: remote)
            }
            if code == "NoSuchBucket" {
                return DocumentKitError(.missingInput, "no such bucket", path: remote)
            }
            if status == 404, code == "NoSuchKey" {
                return DocumentKitError(
                    .missingInput, "no such file", path: path.isEmpty ? remote : "\(remote)/\(path)")
            }
            return DocumentKitError(
                error.isTransient ? .unavailable : .ioError, "\(asked): \(error.answer)\(error.notes)", path: remote)
        }
    }
}
