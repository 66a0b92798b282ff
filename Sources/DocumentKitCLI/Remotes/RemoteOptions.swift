import ArgumentParser
import DocumentKit
import Foundation

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
            (default: the remote.retry-budget setting, else \(RemoteConnection.defaultRetryBudget)).
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
