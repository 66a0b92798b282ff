import Foundation

extension S3Client {
    /// Stores `body` as `key` only if the object's ETag is still `tag` (`nil`: only if
    /// there is no object), and says whether it did: `false` when another writer's object
    /// is there (a lost race).
    ///
    /// A conditional write is never sent again blindly: its answer may have been lost
    /// after the service applied it (a connection that broke, a 500 after the write, which
    /// radosgw also answers a lost `If-Match` race with), and then a second try fails its
    /// own precondition. So each doubtful outcome is settled by reading the key back: the
    /// bytes of `body` there mean the write happened; the object unchanged (still `tag`, or
    /// still absent) means it did not and nobody else wrote, so it is sent again, as the
    /// retry policy allows; anything else is another writer's, a lost race.
    public func putIfUnchanged(_ body: Data, bucket: String, key: String, ifTag tag: String?) async throws -> Bool {
        var doubtful = false
        var retry = 0
        while true {
            do {
                try await put(body, bucket: bucket, key: key, ifNoneMatch: tag == nil, ifMatch: tag)
                budget.refund()
                return true
            } catch let error as S3Error where error.isPreconditionFailure && !doubtful {
                return false
            } catch var error as S3Error where error.isPreconditionFailure || error.isTransient {
                let current = try await get(bucket: bucket, key: key)
                if current?.data == body { return true }
                let unchanged =
                    tag.map { tag in current.map { Self.unquoted($0.etag) == Self.unquoted(tag) } ?? false }
                    ?? (current == nil)
                guard !error.isPreconditionFailure, unchanged else { return false }
                guard retry < retryPolicy.maxRetries, budget.spend(timeout: error.isTimeout) else {
                    error.retries = retry
                    throw error
                }
                doubtful = true
                retry += 1
                try await pause(seconds: retryPolicy.delay(beforeRetry: retry))
            }
        }
    }

    /// `error`, the answer to a PUT with `If-Match: ifMatch`, as a lost condition when it is
    /// one. The services answer the same condition in different words (measured: AWS's
    /// documentation, moto 5, Ceph radosgw 16.2 of Debian 12): AWS and moto answer 404
    /// NoSuchKey when the object to match is gone (radosgw 412), which means to a
    /// compare-and-swap that another writer took the key away. Any other error is returned
    /// as it is.
    static func conditionLost(_ error: S3Error, ifMatch: String?) -> S3Error {
        guard ifMatch != nil, case .service(let status, "NoSuchKey") = error.kind else { return error }
        return S3Error(
            .service(status: status, code: "PreconditionFailed"), message: "no object to match: \(error.message)",
            resource: error.resource)
    }
}
