import Foundation

/// The keys that sign requests to an S3-compatible service (an access key id, its secret,
/// and for temporary credentials a session token). The library takes them as values: the
/// program finds them (`docctl` reads the standard `AWS_*` variables and the shared
/// credentials file). They are never printed: `description` names the key id alone.
public struct S3Credentials: Sendable, CustomStringConvertible {
    public var accessKeyID: String
    public var secretAccessKey: String
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    public var description: String { "S3 credentials of key \(accessKeyID)" }
}
