import AsyncHTTPClient
import Crypto
import DocumentKitCore
import Foundation
import NIOCore
import NIOHTTP1

extension S3Client {
    /// A whole, checked answer: its headers, its body, and the body's XML when one was asked for.
    struct Response {
        var headers: HTTPHeaders
        var body: Data
        var xml = S3XML()
    }

    /// Sends one signed request as `operation` (AWS's name for it), retried as
    /// ``retryPolicy`` says unless `retrying` is false, and returns the answer once checked:
    /// an error status becomes `S3Error`; a body shorter than its Content-Length is an
    /// error; with `checksBody`, an ETag that is an MD5 must be that of the body sent (a
    /// PUT) or received (a GET); with `answer`, the body must be that XML document (an
    /// `Error` document in a 200 is the error it names).
    func send(
        _ operation: String, _ method: HTTPMethod, bucket: String, key: String?, query: [(String, String)] = [],
        headers: [String: String] = [:], body: ByteBuffer = ByteBuffer(), limit: Int = 16 << 20,
        checksBody: Bool = false,
        answer: String? = nil, retrying: Bool = true
    ) async throws -> Response {
        let resource = key.map { "\(bucket)/\($0)" } ?? bucket
        // A body goes with its MD5 (`Content-MD5`, signed), which the service checks on
        // arrival, and its payload unsigned: the one hash of its bytes also checks the
        // answer's ETag, where signing the payload would hash every byte a second time.
        var headers = headers
        var sentMD5: String?
        if method == .PUT, body.readableBytes > 0 {
            let digest = body.withUnsafeReadableBytes { Insecure.MD5.hash(data: $0) }
            headers["content-md5"] = Data(digest).base64EncodedString()
            sentMD5 = Self.hex(digest)
        }
        let once: (Int) async throws -> Response = { [headers] _ in
            let response = try await execute(
                method, bucket: bucket, key: key, query: query, headers: headers, body: body,
                payloadHash: sentMD5 == nil ? nil : SigV4Signer.unsignedPayload)
            let data: Data
            do {
                data = Data(try await response.body.collect(upTo: method == .HEAD ? 0 : limit).readableBytesView)
            } catch is NIOTooManyBytesError {
                throw S3Error(
                    .service(status: Int(response.status.code), code: "TooLarge"),
                    message: "the answer is over \(limit) bytes", resource: resource)
            } catch {
                // The answer began and broke off.
                throw interrupted(error, resource: resource)
            }
            var checked = Response(headers: response.headers, body: data)
            if method != .HEAD {
                try Self.checkLength(data, headers: response.headers, resource: resource)
            }
            if checksBody {
                try Self.checkMD5(
                    method == .PUT ? sentMD5 ?? Self.md5(body) : Self.md5(data), headers: response.headers,
                    resource: resource)
            }
            if let answer {
                checked.xml = try Self.document(answer, in: data, status: Int(response.status.code), resource: resource)
            }
            return checked
        }
        if retrying { return try await self.retrying(operation, once) }
        do {
            return try await once(0)
        } catch var error as S3Error {
            error.operation = operation
            throw error
        }
    }

    /// Sends one signed request; an error status becomes `S3Error`, after reading the
    /// service's error document (`Code`, `Message`, `RequestId`). The body of a success is
    /// the caller's to read. `payloadHash` is the body's SHA-256 unless given.
    func execute(
        _ method: HTTPMethod, bucket: String, key: String?, query: [(String, String)] = [],
        headers: [String: String] = [:], body: ByteBuffer = ByteBuffer(), payloadHash: String? = nil
    ) async throws -> HTTPClientResponse {
        let resource = key.map { "\(bucket)/\($0)" } ?? bucket
        var path = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        path += "/" + SigV4Signer.encode(bucket)
        if let key { path += "/" + SigV4Signer.encode(key, keepingSlash: true) }
        let host = endpoint.port.map { "\(endpoint.host ?? ""):\($0)" } ?? (endpoint.host ?? "")
        var signing = headers
        signing["host"] = host
        let signed = signer.signedHeaders(
            method: method.rawValue, path: path, query: query, headers: signing,
            payloadHash: payloadHash ?? SigV4Signer.payloadHash(body), date: Date())
        let queryText = query.map {
            $0.1.isEmpty ? SigV4Signer.encode($0.0) : "\(SigV4Signer.encode($0.0))=\(SigV4Signer.encode($0.1))"
        }
        .joined(separator: "&")
        var request = HTTPClientRequest(
            url: "\(endpoint.scheme ?? "https")://\(host)\(path)\(queryText.isEmpty ? "" : "?" + queryText)")
        request.method = method
        for (name, value) in signed { request.headers.replaceOrAdd(name: name, value: value) }
        if body.readableBytes > 0 || method == .PUT || method == .POST {
            // One buffer, written by the connection's event loop, and the caller's own (no
            // copy: a part in flight costs its size once). Handed over as `Data`, a body
            // over 4 MB becomes a sequence the client reads from a task on the shared
            // cooperative threads: a synchronous push called from async code (a test, an
            // app) holds those threads waiting, and the part is never sent (a hang, seen
            // with two such pushes on a 2-core machine).
            request.body = .bytes(body)
        }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: timeout)
        } catch {
            throw interrupted(error, resource: resource)
        }
        guard (200..<300).contains(Int(response.status.code)) else {
            // An error document cut short still has its status to go by.
            let data = (try? await response.body.collect(upTo: 1 << 20)).map { Data($0.readableBytesView) } ?? Data()
            let xml = S3XML.parse(data)
            // A HEAD's answer has no body: its status is all there is to go on.
            let code =
                xml.first("Code")
                ?? (response.status.code == 404
                    ? (key == nil ? "NoSuchBucket" : "NoSuchKey")
                    : response.status.code == 403 ? "AccessDenied" : response.status.reasonPhrase)
            var error = S3Error(
                .service(status: Int(response.status.code), code: code),
                message: xml.first("Message") ?? response.status.reasonPhrase,
                resource: resource)
            error.requestID = xml.first("RequestId") ?? response.headers.first(name: "x-amz-request-id")
            throw error
        }
        return response
    }
}
