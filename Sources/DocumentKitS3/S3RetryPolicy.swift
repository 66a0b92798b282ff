import DocumentKitCore
import Foundation
import NIOCore

/// How an ``S3Client`` tries again a request that failed in passing (``S3Error/isTransient``),
/// as AWS's own SDKs do in their "standard" mode: exponential backoff with full jitter
/// (the n-th retry waits a random time between 0 and `min(maxDelay, baseDelay × 2ⁿ⁻¹)`),
/// at most ``maxRetries`` times for one request, and all requests together no more than a
/// budget allows (``S3RetryBudget``), so that a service that is down is given up on
/// rather than hammered.
public struct S3RetryPolicy: Sendable {
    /// How many times one request is tried again, at most.
    public var maxRetries = 8
    /// The longest wait before the first retry, in seconds; it doubles for each next one.
    public var baseDelay = 0.1
    /// The longest wait before any retry, in seconds.
    public var maxDelay = 20.0
    /// How long one request may go without an answer, or a body without a byte.
    public var timeout: TimeAmount = .seconds(60)
    /// How many retries all of one client's requests may make together (``S3RetryBudget``),
    /// a timeout counting as two, each request that succeeds earning a fifth of one back.
    public var budget = S3RetryBudget.defaultRetries
    /// A number in `0..<1` for each wait's jitter; tests give a seeded one, so that a run
    /// that failed waits the same again.
    public var jitter: @Sendable () -> Double = { Double.random(in: 0..<1) }

    public init(maxRetries: Int = 8, timeout: TimeAmount = .seconds(60), budget: Int = S3RetryBudget.defaultRetries) {
        self.maxRetries = maxRetries
        self.timeout = timeout
        self.budget = budget
    }

    /// How long to wait, in seconds, before retry number `retry` (from 1).
    public func delay(beforeRetry retry: Int) -> Double {
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(min(retry, 30) - 1)))
        return jitter() * ceiling
    }
}
