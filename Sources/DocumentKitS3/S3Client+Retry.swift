import Foundation

extension S3Client {
    /// Runs `attempt` (given its number, 0 first) until it succeeds, fails for good, or
    /// the policy's retries or the client's budget run out; then the last error, with the
    /// number of retries made and the operation it was. Only for requests that may be sent
    /// twice: a conditional write is settled by reading back instead
    /// (``putIfUnchanged(_:bucket:key:ifTag:)``).
    func retrying<T>(_ operation: String, _ attempt: (Int) async throws -> T) async throws -> T {
        var retry = 0
        while true {
            do {
                let value = try await attempt(retry)
                budget.refund()
                return value
            } catch var error as S3Error {
                error.operation = operation
                guard error.isTransient, retry < retryPolicy.maxRetries, budget.spend(timeout: error.isTimeout) else {
                    error.retries = retry
                    throw error
                }
                retry += 1
                try await pause(seconds: retryPolicy.delay(beforeRetry: retry))
            }
        }
    }

    /// Waits `seconds` before a retry.
    func pause(seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
