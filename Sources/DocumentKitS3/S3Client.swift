import AsyncHTTPClient
import DocumentKitCore
import Foundation
import NIOCore
import NIOHTTP1

/// A client of the S3 API for what DocumentKit's remotes need, on any S3-compatible service
/// (AWS, MinIO, Ceph RGW, R2): objects put, read, listed and deleted, conditional writes
/// (`If-None-Match: *` creates only, `If-Match` replaces only the version read), and
/// multipart uploads for large objects. Requests use path-style addresses
/// (`ENDPOINT/BUCKET/KEY`), which every such service accepts, and are signed with SigV4.
///
/// Every answer is checked before it is used: its status (an error document's `Code`,
/// `Message` and `RequestId` kept in ``S3Error``), a body as long as its Content-Length,
/// and an object's bytes against their MD5 where the ETag is one. What fails in passing
/// (``S3Error/isTransient``) is tried again as ``retryPolicy`` says.
public struct S3Client: Sendable {
    /// The service's address, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`.
    public var endpoint: URL
    public var signer: SigV4Signer
    /// How failed requests are tried again, and how long one may take.
    public var retryPolicy = S3RetryPolicy()
    /// The retries all requests of this client (and its copies) may still make, and made.
    public let budget: S3RetryBudget
    let http: HTTPClient

    /// How long one request may go without an answer (``S3RetryPolicy/timeout``).
    public var timeout: TimeAmount {
        get { retryPolicy.timeout }
        set { retryPolicy.timeout = newValue }
    }

    public init(
        endpoint: URL, region: String, credentials: S3Credentials, http: HTTPClient = .shared,
        budget: S3RetryBudget = S3RetryBudget()
    ) {
        self.endpoint = endpoint
        self.budget = budget
        self.signer = SigV4Signer(credentials: credentials, region: region)
        self.http = http
    }

    /// One object of a listing.
    public struct ObjectInfo: Sendable, Equatable {
        public var key: String
        public var size: UInt64
        public var etag: String
    }

    // MARK: Buckets and objects

    /// Creates `bucket`. (Remotes expect their bucket to exist; tests make theirs.)
    public func createBucket(_ bucket: String) async throws {
        _ = try await send("CreateBucket", .PUT, bucket: bucket, key: nil)
    }

    /// Stores `body` as `key`; returns its ETag. With `ifNoneMatch`, only if no object has
    /// the key; with `ifMatch`, only if the object's ETag is that one (quoted, as HEAD and
    /// GET give it, or not). A lost condition is an `S3Error` whose `isPreconditionFailure`
    /// is true, on every service: see ``conditionLost(_:ifMatch:)``. A conditional write is
    /// sent once, never retried (``putIfUnchanged(_:bucket:key:ifTag:)`` settles one whose
    /// answer was lost); another is retried, and the ETag answered checked against the
    /// body's MD5.
    @discardableResult
    public func put(
        _ body: Data, bucket: String, key: String, ifNoneMatch: Bool = false, ifMatch: String? = nil,
        contentType: String = "application/octet-stream"
    ) async throws -> String {
        try await put(
            ByteBuffer(bytes: body), bucket: bucket, key: key, ifNoneMatch: ifNoneMatch, ifMatch: ifMatch,
            contentType: contentType)
    }

    /// Stores `body` as `key`, as the same call with `Data` does, sending the buffer itself:
    /// a file read into it for sending is not copied again.
    @discardableResult
    public func put(
        _ body: ByteBuffer, bucket: String, key: String, ifNoneMatch: Bool = false, ifMatch: String? = nil,
        contentType: String = "application/octet-stream"
    ) async throws -> String {
        var headers = ["content-type": contentType]
        if ifNoneMatch { headers["if-none-match"] = "*" }
        if let ifMatch { headers["if-match"] = Self.unquoted(ifMatch) }
        do {
            let response = try await send(
                "PutObject", .PUT, bucket: bucket, key: key, headers: headers, body: body, checksBody: true,
                retrying: !ifNoneMatch && ifMatch == nil)
            return response.headers.first(name: "etag") ?? ""
        } catch let error as S3Error {
            throw Self.conditionLost(error, ifMatch: ifMatch)
        }
    }

    /// The object `key`, or `nil` when there is none (a 404 `NoSuchKey`, and only that:
    /// any other failure is thrown).
    public func get(bucket: String, key: String, limit: Int = 1 << 30) async throws -> (data: Data, etag: String)? {
        do {
            let response = try await send("GetObject", .GET, bucket: bucket, key: key, limit: limit, checksBody: true)
            return (response.body, response.headers.first(name: "etag") ?? "")
        } catch let error as S3Error where error.status == 404 && error.code == "NoSuchKey" {
            return nil
        }
    }

    /// The size and ETag of object `key`, or `nil` when there is none (a 404, which is all
    /// a HEAD's answer says).
    public func head(bucket: String, key: String) async throws -> ObjectInfo? {
        do {
            let response = try await send("HeadObject", .HEAD, bucket: bucket, key: key)
            guard let size = response.headers.first(name: "content-length").flatMap({ UInt64($0) }) else {
                throw S3Error(
                    .interrupted, message: "the answer gives no size (Content-Length)", resource: "\(bucket)/\(key)")
            }
            return ObjectInfo(key: key, size: size, etag: response.headers.first(name: "etag") ?? "")
        } catch let error as S3Error
            where error.status == 404 && (error.code == "NoSuchKey" || error.code == "NotFound")
        {
            return nil
        }
    }

    /// Removes object `key` (nothing when there is none).
    public func delete(bucket: String, key: String) async throws {
        _ = try await send("DeleteObject", .DELETE, bucket: bucket, key: key)
    }

    /// Every object whose key starts with `prefix`, in key order (ListObjectsV2, page by page).
    public func list(bucket: String, prefix: String) async throws -> [ObjectInfo] {
        var objects: [ObjectInfo] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let xml = try await send(
                "ListObjectsV2", .GET, bucket: bucket, key: nil, query: query, answer: "ListBucketResult"
            ).xml
            let keys = xml.all("Key", in: "Contents")
            let sizes = xml.all("Size", in: "Contents")
            let etags = xml.all("ETag", in: "Contents")
            // A page whose entries do not add up is garbled, not short of objects.
            guard sizes.count == keys.count, etags.count == keys.count else {
                throw S3Error(
                    .service(status: 200, code: "MalformedResponse"),
                    message: "a listing page names \(keys.count) keys with \(sizes.count) sizes", resource: bucket)
            }
            for (index, key) in keys.enumerated() {
                guard let size = UInt64(sizes[index]) else {
                    throw S3Error(
                        .service(status: 200, code: "MalformedResponse"), message: "a listing gives no size for \(key)",
                        resource: bucket)
                }
                objects.append(ObjectInfo(key: key, size: size, etag: etags[index]))
            }
            token = xml.first("IsTruncated") == "true" ? xml.first("NextContinuationToken") : nil
        } while token != nil
        return objects
    }

    // MARK: Multipart uploads

    /// Starts a multipart upload of `key`; returns its upload id. (Sent again after a lost
    /// answer, it starts a second upload; the one whose id was lost holds no part and is
    /// never completed, and a bucket's lifecycle rule for unfinished uploads removes it.)
    public func startMultipartUpload(bucket: String, key: String) async throws -> String {
        let xml = try await send(
            "CreateMultipartUpload", .POST, bucket: bucket, key: key, query: [("uploads", "")],
            answer: "InitiateMultipartUploadResult"
        ).xml
        guard let id = xml.first("UploadId"), !id.isEmpty else {
            throw S3Error(
                .service(status: 200, code: "MalformedResponse"), message: "the answer names no upload id",
                resource: "\(bucket)/\(key)")
        }
        return id
    }

    /// Uploads part `number` (from 1) of an upload; returns its ETag. A part whose answer
    /// is lost is sent again alone: the upload goes on from the parts that arrived.
    public func uploadPart(_ body: Data, number: Int, uploadID: String, bucket: String, key: String) async throws
        -> String
    {
        try await uploadPart(ByteBuffer(bytes: body), number: number, uploadID: uploadID, bucket: bucket, key: key)
    }

    /// Uploads part `number` of an upload from a buffer, sent as it is (not copied again).
    public func uploadPart(_ body: ByteBuffer, number: Int, uploadID: String, bucket: String, key: String) async throws
        -> String
    {
        let response = try await send(
            "UploadPart", .PUT, bucket: bucket, key: key, query: [("partNumber", "\(number)"), ("uploadId", uploadID)],
            body: body, checksBody: true)
        return response.headers.first(name: "etag") ?? ""
    }

    /// The parts of an upload that arrived, by number: what a resumed upload need not send
    /// again; `nil` when the upload is gone (finished or abandoned since it was listed).
    public func uploadedParts(uploadID: String, bucket: String, key: String) async throws -> [Int: (
        etag: String, size: UInt64
    )]? {
        var parts: [Int: (etag: String, size: UInt64)] = [:]
        var marker: String?
        repeat {
            var query = [("uploadId", uploadID)]
            if let marker { query.append(("part-number-marker", marker)) }
            let xml: S3XML
            do {
                xml = try await send(
                    "ListParts", .GET, bucket: bucket, key: key, query: query, answer: "ListPartsResult"
                ).xml
            } catch let error as S3Error
                where error.status == 404 && (error.code == "NoSuchUpload" || error.code == "NoSuchKey")
            {
                // AWS and moto say NoSuchUpload; radosgw says NoSuchKey of an abandoned upload.
                return nil
            }
            let numbers = xml.all("PartNumber", in: "Part")
            let etags = xml.all("ETag", in: "Part")
            let sizes = xml.all("Size", in: "Part")
            for (index, number) in numbers.enumerated() {
                guard let number = Int(number), index < etags.count, index < sizes.count,
                    let size = UInt64(sizes[index])
                else { continue }
                parts[number] = (etags[index], size)
            }
            marker = xml.first("IsTruncated") == "true" ? xml.first("NextPartNumberMarker") : nil
        } while marker != nil
        return parts
    }

    /// The uploads of `key` started and not finished, by id.
    public func unfinishedUploads(bucket: String, key: String) async throws -> [String] {
        let xml = try await send(
            "ListMultipartUploads", .GET, bucket: bucket, key: nil, query: [("uploads", ""), ("prefix", key)],
            answer: "ListMultipartUploadsResult"
        ).xml
        let keys = xml.all("Key", in: "Upload")
        let ids = xml.all("UploadId", in: "Upload")
        return zip(keys, ids).filter { $0.0 == key }.map(\.1)
    }

    /// Joins the parts into the object; `parts` are the ETags, by part number. S3 may
    /// answer 200 with an error document, which is an error (retried when passing). A
    /// retry that finds the upload gone (`NoSuchUpload`) after an answer was lost is
    /// settled by the object's ETag: that of these parts means the first one was joined.
    /// The answer's ETag is not used: radosgw answers an empty one.
    public func completeMultipartUpload(uploadID: String, parts: [Int: String], bucket: String, key: String)
        async throws
    {
        let list = parts.keys.sorted().map {
            "<Part><PartNumber>\($0)</PartNumber><ETag>\(Self.escaped(parts[$0]!))</ETag></Part>"
        }.joined()
        let body = ByteBuffer(string: "<CompleteMultipartUpload>\(list)</CompleteMultipartUpload>")
        try await retrying("CompleteMultipartUpload") { attempt in
            do {
                _ = try await send(
                    "CompleteMultipartUpload", .POST, bucket: bucket, key: key, query: [("uploadId", uploadID)],
                    body: body,
                    answer: "CompleteMultipartUploadResult", retrying: false)
            } catch let error as S3Error where attempt > 0 && error.code == "NoSuchUpload" {
                guard let object = try await head(bucket: bucket, key: key), let expected = Self.multipartETag(parts),
                    Self.unquoted(object.etag) == expected
                else { throw error }
            }
        }
    }

    /// Abandons an upload and frees its parts.
    public func abortMultipartUpload(uploadID: String, bucket: String, key: String) async throws {
        _ = try await send("AbortMultipartUpload", .DELETE, bucket: bucket, key: key, query: [("uploadId", uploadID)])
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
