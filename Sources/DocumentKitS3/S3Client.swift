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
public struct S3Client: Sendable {
    /// The service's address, e.g. `https://s3.eu-west-1.amazonaws.com` or `http://127.0.0.1:9000`.
    public var endpoint: URL
    public var signer: SigV4Signer
    /// How long one request may take.
    public var timeout: TimeAmount = .seconds(60)
    private let http: HTTPClient

    public init(endpoint: URL, region: String, credentials: S3Credentials, http: HTTPClient = .shared) {
        self.endpoint = endpoint
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
        _ = try await send(.PUT, bucket: bucket, key: nil)
    }

    /// Stores `body` as `key`; returns its ETag. With `ifNoneMatch`, only if no object has
    /// the key; with `ifMatch`, only if the object's ETag is that one (quoted, as HEAD and
    /// GET give it, or not). A lost condition is an `S3Error` whose `isPreconditionFailure`
    /// is true, on every service: see ``conditionLost(_:ifMatch:)``.
    @discardableResult
    public func put(_ body: Data, bucket: String, key: String, ifNoneMatch: Bool = false, ifMatch: String? = nil,
                    contentType: String = "application/octet-stream") async throws -> String {
        var headers = ["content-type": contentType]
        if ifNoneMatch { headers["if-none-match"] = "*" }
        if let ifMatch { headers["if-match"] = Self.unquoted(ifMatch) }
        do {
            let response = try await send(.PUT, bucket: bucket, key: key, headers: headers, body: body)
            return response.headers.first(name: "etag") ?? ""
        } catch let error as S3Error {
            throw Self.conditionLost(error, ifMatch: ifMatch)
        }
    }

    /// The object `key`, or `nil` when there is none.
    public func get(bucket: String, key: String, limit: Int = 1 << 30) async throws -> (data: Data, etag: String)? {
        do {
            let response = try await send(.GET, bucket: bucket, key: key, limit: limit)
            return (response.body, response.headers.first(name: "etag") ?? "")
        } catch let error as S3Error where error.code == "NoSuchKey" {
            return nil
        }
    }

    /// The size and ETag of object `key`, or `nil` when there is none.
    public func head(bucket: String, key: String) async throws -> ObjectInfo? {
        do {
            let response = try await send(.HEAD, bucket: bucket, key: key)
            let size = response.headers.first(name: "content-length").flatMap { UInt64($0) } ?? 0
            return ObjectInfo(key: key, size: size, etag: response.headers.first(name: "etag") ?? "")
        } catch let error as S3Error where error.code == "NoSuchKey" || error.code == "NotFound" {
            return nil
        }
    }

    /// Removes object `key` (nothing when there is none).
    public func delete(bucket: String, key: String) async throws {
        _ = try await send(.DELETE, bucket: bucket, key: key)
    }

    /// Every object whose key starts with `prefix`, in key order (ListObjectsV2, page by page).
    public func list(bucket: String, prefix: String) async throws -> [ObjectInfo] {
        var objects: [ObjectInfo] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix)]
            if let token { query.append(("continuation-token", token)) }
            let xml = S3XML.parse(try await send(.GET, bucket: bucket, key: nil, query: query).body)
            let keys = xml.all("Key", in: "Contents"), sizes = xml.all("Size", in: "Contents"), etags = xml.all("ETag", in: "Contents")
            for (index, key) in keys.enumerated() {
                objects.append(ObjectInfo(key: key, size: index < sizes.count ? UInt64(sizes[index]) ?? 0 : 0,
                                          etag: index < etags.count ? etags[index] : ""))
            }
            token = xml.first("IsTruncated") == "true" ? xml.first("NextContinuationToken") : nil
        } while token != nil
        return objects
    }

    // MARK: Multipart uploads

    /// Starts a multipart upload of `key`; returns its upload id.
    public func startMultipartUpload(bucket: String, key: String) async throws -> String {
        let xml = S3XML.parse(try await send(.POST, bucket: bucket, key: key, query: [("uploads", "")]).body)
        guard let id = xml.first("UploadId") else {
            throw S3Error(.service(status: 200, code: "MalformedResponse"), message: "the answer names no upload id", resource: "\(bucket)/\(key)")
        }
        return id
    }

    /// Uploads part `number` (from 1) of an upload; returns its ETag.
    public func uploadPart(_ body: Data, number: Int, uploadID: String, bucket: String, key: String) async throws -> String {
        let response = try await send(.PUT, bucket: bucket, key: key, query: [("partNumber", "\(number)"), ("uploadId", uploadID)], body: body)
        return response.headers.first(name: "etag") ?? ""
    }

    /// The parts of an upload that arrived, by number: what a resumed upload need not send
    /// again; `nil` when the upload is gone (finished or abandoned since it was listed).
    public func uploadedParts(uploadID: String, bucket: String, key: String) async throws -> [Int: (etag: String, size: UInt64)]? {
        let answer: Response
        do {
            answer = try await send(.GET, bucket: bucket, key: key, query: [("uploadId", uploadID)])
        } catch let error as S3Error where error.code == "NoSuchUpload" || error.code == "NoSuchKey" {
            // AWS and moto say NoSuchUpload; radosgw says NoSuchKey of an abandoned upload.
            return nil
        }
        let xml = S3XML.parse(answer.body)
        let numbers = xml.all("PartNumber", in: "Part"), etags = xml.all("ETag", in: "Part"), sizes = xml.all("Size", in: "Part")
        var parts: [Int: (etag: String, size: UInt64)] = [:]
        for (index, number) in numbers.enumerated() {
            guard let number = Int(number), index < etags.count else { continue }
            parts[number] = (etags[index], index < sizes.count ? UInt64(sizes[index]) ?? 0 : 0)
        }
        return parts
    }

    /// The uploads of `key` started and not finished, by id.
    public func unfinishedUploads(bucket: String, key: String) async throws -> [String] {
        let xml = S3XML.parse(try await send(.GET, bucket: bucket, key: nil, query: [("uploads", ""), ("prefix", key)]).body)
        let keys = xml.all("Key", in: "Upload"), ids = xml.all("UploadId", in: "Upload")
        return zip(keys, ids).filter { $0.0 == key }.map(\.1)
    }

    /// Joins the parts into the object; `parts` are the ETags, by part number. The answer's
    /// ETag is not used: radosgw answers an empty one (a HEAD afterwards gives the object's).
    public func completeMultipartUpload(uploadID: String, parts: [Int: String], bucket: String, key: String) async throws {
        let list = parts.keys.sorted().map { "<Part><PartNumber>\($0)</PartNumber><ETag>\(Self.escaped(parts[$0]!))</ETag></Part>" }.joined()
        let body = Data("<CompleteMultipartUpload>\(list)</CompleteMultipartUpload>".utf8)
        let response = try await send(.POST, bucket: bucket, key: key, query: [("uploadId", uploadID)], body: body)
        // S3 may answer 200 with an error in the body.
        let xml = S3XML.parse(response.body)
        if let code = xml.first("Code", in: "Error") {
            throw S3Error(.service(status: 200, code: code), message: xml.first("Message") ?? "", resource: "\(bucket)/\(key)")
        }
    }

    /// Abandons an upload and frees its parts.
    public func abortMultipartUpload(uploadID: String, bucket: String, key: String) async throws {
        _ = try await send(.DELETE, bucket: bucket, key: key, query: [("uploadId", uploadID)])
    }

    // MARK: Requests

    private struct Response {
        var headers: HTTPHeaders
        var body: Data
    }

    /// Sends one signed request and returns the answer; an error status becomes `S3Error`.
    private func send(_ method: HTTPMethod, bucket: String, key: String?, query: [(String, String)] = [],
                      headers: [String: String] = [:], body: Data = Data(), limit: Int = 16 << 20) async throws -> Response {
        let response = try await execute(method, bucket: bucket, key: key, query: query, headers: headers, body: body)
        do {
            let buffer = try await response.body.collect(upTo: method == .HEAD ? 0 : limit)
            return Response(headers: response.headers, body: Data(buffer.readableBytesView))
        } catch let error as NIOTooManyBytesError {
            throw error
        } catch {
            // The answer began and broke off.
            throw unreachable(error, resource: key.map { "\(bucket)/\($0)" } ?? bucket)
        }
    }

    /// Streams object `key` to `output` as it arrives, never holding more than what the
    /// connection delivers at once, telling `received` the size of each piece written;
    /// returns the bytes written.
    public func download(bucket: String, key: String, to output: FileHandle,
                         received: @Sendable (Int) -> Void = { _ in }) async throws -> UInt64 {
        let response = try await execute(.GET, bucket: bucket, key: key)
        var written: UInt64 = 0
        var chunks = response.body.makeAsyncIterator()
        while true {
            let next: ByteBuffer?
            do { next = try await chunks.next() } catch { throw unreachable(error, resource: "\(bucket)/\(key)") }
            guard let chunk = next else { return written }
            try output.write(contentsOf: Data(chunk.readableBytesView))
            written += UInt64(chunk.readableBytes)
            received(chunk.readableBytes)
        }
    }

    /// Sends one signed request; an error status becomes `S3Error`, after reading the
    /// service's error document. The body of a success is the caller's to read.
    private func execute(_ method: HTTPMethod, bucket: String, key: String?, query: [(String, String)] = [],
                         headers: [String: String] = [:], body: Data = Data()) async throws -> HTTPClientResponse {
        let resource = key.map { "\(bucket)/\($0)" } ?? bucket
        var path = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        path += "/" + SigV4Signer.encode(bucket)
        if let key { path += "/" + SigV4Signer.encode(key, keepingSlash: true) }
        let host = endpoint.port.map { "\(endpoint.host ?? ""):\($0)" } ?? (endpoint.host ?? "")
        var signing = headers
        signing["host"] = host
        let signed = signer.signedHeaders(method: method.rawValue, path: path, query: query, headers: signing,
                                          payloadHash: SigV4Signer.payloadHash(body), date: Date())
        let queryText = query.map { $0.1.isEmpty ? SigV4Signer.encode($0.0) : "\(SigV4Signer.encode($0.0))=\(SigV4Signer.encode($0.1))" }
            .joined(separator: "&")
        var request = HTTPClientRequest(url: "\(endpoint.scheme ?? "https")://\(host)\(path)\(queryText.isEmpty ? "" : "?" + queryText)")
        request.method = method
        for (name, value) in signed { request.headers.replaceOrAdd(name: name, value: value) }
        if !body.isEmpty || method == .PUT || method == .POST {
            // One buffer, written by the connection's event loop. Handed over as `Data`, a
            // body over 4 MB becomes a sequence the client reads from a task on the shared
            // cooperative threads: a synchronous push called from async code (a test, an
            // app) holds those threads waiting, and the part is never sent (a hang, seen
            // with two such pushes on a 2-core machine).
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: timeout)
        } catch {
            throw unreachable(error, resource: resource)
        }
        guard (200..<300).contains(Int(response.status.code)) else {
            let data = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
            let xml = S3XML.parse(data)
            // A HEAD's answer has no body: its status is all there is to go on.
            let code = xml.first("Code") ?? (response.status.code == 404 ? (key == nil ? "NoSuchBucket" : "NoSuchKey")
                : response.status.code == 403 ? "AccessDenied" : response.status.reasonPhrase)
            throw S3Error(.service(status: Int(response.status.code), code: code), message: xml.first("Message") ?? response.status.reasonPhrase,
                          resource: resource)
        }
        return response
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
