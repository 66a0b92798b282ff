import ArgumentParser
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

    /// How many files go at once: ``jobs``, else DocumentKit's default.
    var transfers: Int { jobs ?? TransferQueue.defaultJobs }
}

/// `--endpoint`, `--timeout`, `--retries`, `--retry-budget` and `--jobs`, for commands that reach a remote.
struct RemoteOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            The S3 service's address for s3:// remotes (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, \
            endpoint_url in ~/.aws/config, else AWS).
            """,
            valueName: "URL"))
    var endpoint: String?
    @Option(
        help: ArgumentHelp(
            """
            Seconds an S3 request may go unanswered before it is tried again (default: the remote.timeout setting, \
            else 60).
            """,
            valueName: "SECONDS"))
    var timeout: Double?
    @Option(
        help: ArgumentHelp(
            """
            How many times an S3 request that fails in passing (503, 500, a broken connection) is tried again \
            (default: the remote.retries setting, else 8).
            """,
            valueName: "N"))
    var retries: Int?
    @Option(
        help: ArgumentHelp(
            """
            How many retries all of the command's S3 requests may make together, a timeout counting as two \
            (default: the remote.retry-budget setting, else \(Self.defaultRetryBudget)).
            """,
            valueName: "N"))
    var retryBudget: Int?
    @Option(
        help: ArgumentHelp(
            """
            How many files are sent or fetched at once (default: the remote.jobs setting, else \
            \(TransferQueue.defaultJobs)).
            """,
            valueName: "N"))
    var jobs: Int?

    /// The most files a command sends or fetches at once.
    static let maximumJobs = 64
    /// The S3 client's own default (`S3RetryBudget.defaultRetries`, which this target does
    /// not link): the same number, for the help and the setting.
    static let defaultRetryBudget = 100

    func validate() throws {
        if let timeout, !(timeout > 0 && timeout <= 86_400) {
            throw ValidationError("--timeout takes seconds from more than 0 to 86400, not \(timeout)")
        }
        if let retries, !(0...100).contains(retries) {
            throw ValidationError("--retries takes 0 to 100, not \(retries)")
        }
        if let retryBudget, !(0...10_000).contains(retryBudget) {
            throw ValidationError("--retry-budget takes 0 to 10000, not \(retryBudget)")
        }
        if let jobs, !(1...Self.maximumJobs).contains(jobs) {
            throw ValidationError("--jobs takes 1 to \(Self.maximumJobs), not \(jobs)")
        }
    }

    /// The connection the options and the user's settings ask for. Settings that cannot
    /// be read count as unset, as for saves' compression: a damaged preferences file must
    /// not stop a backup (`docctl config get` reports it).
    func connection() -> RemoteConnection {
        let settings = try? UserSettings.snapshot.get()
        return RemoteConnection(
            endpoint: endpoint, timeout: timeout ?? (try? settings?.remoteTimeout.get()),
            retries: retries ?? (try? settings?.remoteRetries.get()),
            retryBudget: retryBudget ?? (try? settings?.remoteRetryBudget.get()),
            jobs: jobs ?? (try? settings?.remoteJobs.get()))
    }
}

extension UserSettings {
    /// Seconds an S3 request may go unanswered (60 unless set): `remote.timeout` in
    /// `docctl config`. The default is the S3 client's own (`S3RetryPolicy`).
    public var remoteTimeout: KeyValueContainer<Double> { storage.makeContainer(default: 60) }
    /// How many times an S3 request is tried again (8 unless set): `remote.retries` in
    /// `docctl config`.
    public var remoteRetries: KeyValueContainer<Int> { storage.makeContainer(default: 8) }
    /// How many retries all of a command's S3 requests may make together (100 unless
    /// set): `remote.retry-budget` in `docctl config`.
    public var remoteRetryBudget: KeyValueContainer<Int> {
        storage.makeContainer(default: RemoteOptions.defaultRetryBudget)
    }
    /// How many files a push sends, or a clone or pull fetches, at once
    /// (`TransferQueue.defaultJobs` unless set): `remote.jobs` in `docctl config`.
    public var remoteJobs: KeyValueContainer<Int> { storage.makeContainer(default: TransferQueue.defaultJobs) }
}
