import Foundation

/// What an S3-compatible service answered instead of success: the HTTP status, the
/// service's error code (`NoSuchBucket`, `InvalidAccessKeyId`, `SignatureDoesNotMatch`,
/// `PreconditionFailed`, …), message and request id, and what was asked; or that it could
/// not be reached, or the connection failed before a whole answer came. The message never
/// holds credentials.
public struct S3Error: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The service answered with an error.
        case service(status: Int, code: String)
        /// No connection: the endpoint could not be reached (refused, no route, no TLS).
        /// Not retried: an endpoint that is not there will not be there a moment later.
        case unreachable
        /// The connection was made and then failed: closed or reset before the whole answer,
        /// a body shorter than its Content-Length or whose MD5 is not its ETag, or no answer
        /// within the deadline. Retried.
        case interrupted
    }

    public var kind: Kind
    public var message: String
    /// `bucket/key`, or the bucket, the request was about.
    public var resource: String
    /// The S3 operation, as AWS names it (`PutObject`, `ListObjectsV2`); empty when unknown.
    public var operation = ""
    /// The service's id of the request (`RequestId` in its error document), for its operators.
    public var requestID: String?
    /// How many times the request was tried again before this error was given up on.
    public var retries = 0
    /// Whether the request timed out (no answer, or a stalled body, within the deadline):
    /// such a retry costs more of the budget, as AWS's SDKs count it.
    public var isTimeout = false

    public init(_ kind: Kind, message: String, resource: String) {
        self.kind = kind
        self.message = message
        self.resource = resource
    }

    /// The service's error code, if it answered.
    public var code: String? { if case .service(_, let code) = kind { code } else { nil } }

    /// The HTTP status, if the service answered.
    public var status: Int? { if case .service(let status, _) = kind { status } else { nil } }

    /// Whether a conditional write lost: the object exists (`If-None-Match: *`) or has
    /// changed (`If-Match`).
    public var isPreconditionFailure: Bool {
        if case .service(let status, let code) = kind {
            status == 412 || code == "PreconditionFailed" || code == "ConditionalRequestConflict"
        } else {
            false
        }
    }

    /// Whether the keys were refused: an unknown key id, a wrong secret, or no permission.
    public var isAccessDenied: Bool {
        ["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidToken", "ExpiredToken"].contains(
            code ?? "")
    }

    /// Whether the same request may succeed if sent again: the failures AWS's SDKs retry
    /// (a server error or throttling status or code, a connection that failed after it was
    /// made, an answer cut short or garbled). A refusal (4xx) is the same the next time.
    public var isTransient: Bool {
        switch kind {
        case .unreachable: false
        case .interrupted: true
        case .service(let status, let code): [500, 502, 503, 504].contains(status) || Self.transientCodes.contains(code)
        }
    }

    /// Codes that say "not now" whatever the status (CompleteMultipartUpload may answer
    /// 200 with one in its body), and BadDigest: a body that arrived other than its
    /// Content-MD5 says was damaged on the way, and is sent again from the bytes held.
    static let transientCodes: Set<String> = [
        "SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "Throttling", "ThrottlingException",
        "MalformedResponse", "BadDigest"
    ]

    /// What happened: the service's answer (`HTTP 503 SlowDown: Please reduce your request
    /// rate.`, its message left out when it only repeats the code), or what the connection did.
    public var answer: String {
        guard case .service(let status, let code) = kind else { return message }
        return "HTTP \(status) \(code)" + (message.isEmpty || message == code ? "" : ": \(message)")
    }

    /// What a message adds in parentheses: the service's request id and the retries made,
    /// as ` (request 4442587FB7D0A2F9; gave up after 8 retries)`; empty when neither is known.
    public var notes: String {
        let retried = retries == 0 ? nil : "gave up after \(retries) retr\(retries == 1 ? "y" : "ies")"
        let notes = [requestID.map { "request \($0)" }, retried].compactMap { $0 }
        return notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
    }

    public var description: String {
        "\(operation.isEmpty ? resource : "\(operation) \(resource)"): \(answer)\(notes)"
    }
}
