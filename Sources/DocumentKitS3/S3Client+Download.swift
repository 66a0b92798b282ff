import Crypto
import Foundation
import NIOCore

extension S3Client {
    /// Streams object `key` to `output` as it arrives, never holding more than what the
    /// connection delivers at once, telling `received` the size of each new piece written;
    /// returns the bytes written. The whole must be as long as its Content-Length and, when
    /// its ETag is an MD5, have that MD5; a download that breaks off or fails the check is
    /// started again from the beginning of `output` (`received` is told only of bytes past
    /// those it was told of before), as ``retryPolicy`` allows.
    public func download(
        bucket: String, key: String, to output: FileHandle,
        received: @Sendable (Int) -> Void = { _ in }
    ) async throws -> UInt64 {
        let resource = "\(bucket)/\(key)"
        var counted: UInt64 = 0
        return try await retrying("GetObject") { attempt in
            if attempt > 0 {
                try output.truncate(atOffset: 0)
                try output.seek(toOffset: 0)
            }
            let response = try await execute(.GET, bucket: bucket, key: key)
            let expectedMD5 = response.headers.first(name: "etag").flatMap {
                Self.plainMD5($0, headers: response.headers)
            }
            let promised = response.headers.first(name: "content-length").flatMap(UInt64.init)
            var md5 = Insecure.MD5()
            var written: UInt64 = 0
            var chunks = response.body.makeAsyncIterator()
            while true {
                let next: ByteBuffer?
                do { next = try await chunks.next() } catch { throw interrupted(error, resource: resource) }
                guard let chunk = next else { break }
                let bytes = Data(chunk.readableBytesView)
                try output.write(contentsOf: bytes)
                if expectedMD5 != nil { md5.update(data: bytes) }
                written += UInt64(bytes.count)
                if written > counted {
                    received(Int(written - counted))
                    counted = written
                }
            }
            if let promised, promised != written {
                throw S3Error(
                    .interrupted, message: "the answer ended after \(written) of its \(promised) bytes",
                    resource: resource)
            }
            if let expectedMD5, case let actual = Self.hex(md5.finalize()), actual != expectedMD5 {
                throw S3Error(
                    .interrupted,
                    message: "the body's MD5 (\(actual)) is not its ETag (\(expectedMD5)): it changed on the way",
                    resource: resource)
            }
            return written
        }
    }
}
