import DocumentKit
import Foundation

extension S3RemoteStore {
    /// Settles a conditional write of `data` to `path` (replacing the file tagged `tag`, or
    /// creating it when `tag` is `nil`) that the service answered with `error`, a 500 that
    /// says neither that it won nor that it lost: radosgw may answer a writer that lost an
    /// `If-Match` race so, instead of 412. What the file holds now tells: this write's bytes,
    /// it was applied; another tag, another writer won; still the tag the write expected,
    /// nothing happened, and the service's error stands.
    func settle(_ path: String, with data: Data, ifTag tag: String?, after error: S3Error) throws -> Bool {
        let now = try read(path)
        if now?.data == data { return true }
        if now.map({ S3Client.unquoted($0.tag) }) != tag.map(S3Client.unquoted) { return false }
        throw Self.error(error, remote: displayPath, path: reported(path))
    }
}
