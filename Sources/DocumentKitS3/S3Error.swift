import Foundation

/// What an S3-compatible service answered instead of success: the HTTP status, the
/// service's error code (`NoSuchBucket`, `InvalidAccessKeyId`, `SignatureDoesNotMatch`,
/// `PreconditionFailed`, …) and message, and what was asked; or that it could not be
/// reached at all. The message never holds credentials.
public struct S3Error: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The service answered with an error.
        case service(status: Int, code: String)
        /// No answer: the endpoint could not be reached, or the connection failed.
        case unreachable
    }

    public var kind: Kind
    public var message: String
    /// `bucket/key`, or the bucket, the request was about.
    public var resource: String

    public init(_ kind: Kind, message: String, resource: String) {
        self.kind = kind
        self.message = message
        self.resource = resource
    }

    /// The service's error code, if it answered.
    public var code: String? { if case .service(_, let code) = kind { code } else { nil } }

    /// Whether a conditional write lost: the object exists (`If-None-Match: *`) or has
    /// changed (`If-Match`).
    public var isPreconditionFailure: Bool {
        if case .service(let status, let code) = kind { status == 412 || code == "PreconditionFailed" || code == "ConditionalRequestConflict" } else { false }
    }

    /// Whether the keys were refused: an unknown key id, a wrong secret, or no permission.
    public var isAccessDenied: Bool {
        ["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidToken", "ExpiredToken"].contains(code ?? "")
    }

    public var description: String {
        switch kind {
        case .service(let status, let code): "\(resource): \(code) (HTTP \(status)): \(message)"
        case .unreachable: "\(resource): \(message)"
        }
    }
}
