import DocumentKit
import Foundation

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
        storage.makeContainer(default: RemoteConnection.defaultRetryBudget)
    }
    /// How many files a push sends, or a clone or pull fetches, at once
    /// (`TransferQueue.defaultJobs` unless set): `remote.jobs` in `docctl config`.
    public var remoteJobs: KeyValueContainer<Int> { storage.makeContainer(default: TransferQueue.defaultJobs) }
}
