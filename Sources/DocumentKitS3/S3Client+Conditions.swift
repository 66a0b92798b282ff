import Foundation

/// Conditional writes as every S3-compatible service takes them. The services answer the
/// same conditions in different words (measured: AWS's documentation, moto 5, Ceph radosgw
/// 16.2 of Debian 12), and a compare-and-swap must read each the same way.
extension S3Client {
    /// An ETag as `If-Match` is given it: without its quotes. radosgw compares the header
    /// verbatim with the ETag it keeps, which has none, so a quoted `If-Match` (as HEAD and
    /// GET give the ETag, and as RFC 9110 writes it) never matches there: every
    /// compare-and-swap would lose. AWS and moto ignore the quotes, so unquoted suits all.
    static func unquoted(_ etag: String) -> String {
        var text = Substring(etag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return String(text)
    }

    /// `error`, the answer to a PUT with `If-Match: ifMatch`, as a lost condition when it is
    /// one: AWS and moto answer 404 NoSuchKey when the object to match is gone (radosgw 412),
    /// which means to a compare-and-swap that another writer took the key away. Any other
    /// error is returned as it is.
    static func conditionLost(_ error: S3Error, ifMatch: String?) -> S3Error {
        guard ifMatch != nil, case .service(let status, "NoSuchKey") = error.kind else { return error }
        return S3Error(.service(status: status, code: "PreconditionFailed"), message: "no object to match: \(error.message)", resource: error.resource)
    }
}
