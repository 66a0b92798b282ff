import Crypto
import DocumentKitCore
import Foundation
import NIOCore
import NIOHTTP1

/// The checks an answer passes before its body is used: a cut or garbled body is a
/// failure in passing (retried), never content.
extension S3Client {
    /// Refuses a body shorter (or longer) than the Content-Length its answer promised.
    static func checkLength(_ body: Data, headers: HTTPHeaders, resource: String) throws {
        guard let promised = headers.first(name: "content-length").flatMap(Int.init), promised != body.count else {
            return
        }
        throw S3Error(
            .interrupted, message: "the answer ended after \(body.count) of its \(promised) bytes", resource: resource)
    }

    /// Refuses a body whose MD5 is `actual` (lower-case hex) when the answer's ETag is an
    /// MD5 (a single-part object's, stored without KMS or customer keys, whose ETags are
    /// not) and not that one.
    static func checkMD5(_ actual: String, headers: HTTPHeaders, resource: String) throws {
        guard let etag = headers.first(name: "etag"), let expected = plainMD5(etag, headers: headers) else { return }
        guard actual != expected else { return }
        throw S3Error(
            .interrupted, message: "the body's MD5 (\(actual)) is not its ETag (\(expected)): it changed on the way",
            resource: resource)
    }

    /// The MD5 that `etag` is, in lower-case hex; `nil` when it is no plain MD5: a multipart
    /// upload's (`…-N`), or one of an object encrypted with KMS or a customer's key.
    static func plainMD5(_ etag: String, headers: HTTPHeaders) -> String? {
        let encryption = headers.first(name: "x-amz-server-side-encryption") ?? ""
        guard !encryption.hasPrefix("aws:kms"),
            headers.first(name: "x-amz-server-side-encryption-customer-algorithm") == nil
        else { return nil }
        let value = unquoted(etag).lowercased()
        return value.count == 32 && value.allSatisfy(\.isHexDigit) ? value : nil
    }

    /// The XML document `root` of a 200's body; its `Error` document (S3 may answer 200
    /// and fail, CompleteMultipartUpload does) as that error; a body that does not parse
    /// whole is garbled. The outermost element's name is not held to `root`: services name
    /// it differently (moto answers ListParts with `ListPartsOutput`).
    static func document(_ root: String, in body: Data, status: Int, resource: String) throws -> S3XML {
        let xml = S3XML.parse(body)
        if xml.root == "Error", let code = xml.first("Code", in: "Error") {
            var error = S3Error(
                .service(status: status, code: code), message: xml.first("Message", in: "Error") ?? "",
                resource: resource)
            error.requestID = xml.first("RequestId", in: "Error")
            throw error
        }
        guard xml.isWhole, xml.root != nil else {
            throw S3Error(
                .service(status: status, code: "MalformedResponse"),
                message: "the answer is not a whole \(root) document", resource: resource)
        }
        return xml
    }

    /// The ETag S3 gives the object a multipart upload of `parts` (their ETags, by number)
    /// makes: the MD5 of their MD5s, a dash, and their count; `nil` when a part's ETag is
    /// no MD5.
    static func multipartETag(_ parts: [Int: String]) -> String? {
        var digests = Data()
        for number in parts.keys.sorted() {
            let hexDigits = Array(unquoted(parts[number]!).lowercased().utf8)
            guard hexDigits.count == 32 else { return nil }
            for index in stride(from: 0, to: 32, by: 2) {
                guard let byte = UInt8(String(decoding: hexDigits[index..<index + 2], as: UTF8.self), radix: 16) else {
                    return nil
                }
                digests.append(byte)
            }
        }
        return hex(Insecure.MD5.hash(data: digests)) + "-\(parts.count)"
    }

    /// An ETag without its quotes (and weak mark), as `If-Match` is given it and ETags are
    /// compared. radosgw compares `If-Match` verbatim with the ETag it keeps, which has no
    /// quotes, so a quoted one (as HEAD and GET give it, and as RFC 9110 writes it) never
    /// matches there and every compare-and-swap would lose; AWS and moto ignore the quotes.
    static func unquoted(_ etag: String) -> String {
        var text = Substring(etag)
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return String(text)
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        HexText.lowercase(digest)
    }

    /// The MD5 of `data`, in lower-case hex.
    static func md5(_ data: Data) -> String {
        hex(Insecure.MD5.hash(data: data))
    }

    /// The MD5 of a body to send, in lower-case hex, read in place.
    static func md5(_ body: ByteBuffer) -> String {
        body.withUnsafeReadableBytes { hex(Insecure.MD5.hash(data: $0)) }
    }
}
