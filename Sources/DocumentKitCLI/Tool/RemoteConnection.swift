import DocumentKit
import Foundation

/// How a command reaches a remote: for S3-compatible storage the endpoint, how long one
/// request may go unanswered, how many times a request that fails in passing (a 503, a
/// connection cut) is tried again, and how many retries all of them may make together;
/// for any remote, how many files go at once. Each is taken from the command's option,
/// else the user's setting (`remote.timeout`, `remote.retries`, `remote.retry-budget`,
/// `remote.jobs` in `docctl config`), else the default (`nil`).
///
/// A tool's S3 helper, run with the same arguments, reads the same options and settings.
public struct RemoteConnection: Sendable, Equatable {
    /// The S3 service's address (`--endpoint`); `nil`: the AWS configuration's.
    public var endpoint: String?
    /// Seconds one request may go without an answer, or a body without a byte.
    public var timeout: Double?
    /// How many times one request is tried again.
    public var retries: Int?
    /// How many retries all of a command's requests may make together.
    public var retryBudget: Int?
    /// How many files a push sends, or a clone or pull fetches, at once (`TransferQueue`).
    public var jobs: Int?

    public init(
        endpoint: String? = nil, timeout: Double? = nil, retries: Int? = nil, retryBudget: Int? = nil, jobs: Int? = nil
    ) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.retries = retries
        self.retryBudget = retryBudget
        self.jobs = jobs
    }

    /// How many retries all of a command's S3 requests may make together, unless told.
    static let defaultRetryBudget = 100

    /// How many files go at once: ``jobs``, else DocumentKit's default.
    var transfers: Int { jobs ?? TransferQueue.defaultJobs }
}
