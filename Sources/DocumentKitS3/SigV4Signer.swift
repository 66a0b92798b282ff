import Crypto
import DocumentKitCore
import Foundation
import NIOCore

/// Signs S3 requests with AWS Signature Version 4 (AWS's "Authenticating Requests:
/// Using the Authorization Header"): a canonical request, a string to sign, a key derived
/// from the secret by date, region and service, and an `Authorization` header. A request
/// signs its payload's SHA-256 (`x-amz-content-sha256`), or, for an upload, its signed
/// `Content-MD5` stands for the payload (``unsignedPayload``): either way a body changed
/// on the way is refused by the service.
public struct SigV4Signer: Sendable {
    public var credentials: S3Credentials
    public var region: String
    public var service = "s3"

    public init(credentials: S3Credentials, region: String) {
        self.credentials = credentials
        self.region = region
    }

    /// The headers to add to a request: `x-amz-date`, `x-amz-content-sha256`,
    /// `x-amz-security-token` (with a session token) and `Authorization`. `path` is the
    /// URI path as sent (already percent-encoded); `query` its parameters, unencoded;
    /// `headers` the other headers to sign (at least `host`).
    public func signedHeaders(
        method: String, path: String, query: [(String, String)], headers: [String: String],
        payloadHash: String, date: Date
    ) -> [String: String] {
        let (stamp, day) = Self.timestamps(date)
        var signed = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
        signed["x-amz-date"] = stamp
        signed["x-amz-content-sha256"] = payloadHash
        if let token = credentials.sessionToken { signed["x-amz-security-token"] = token }
        let names = signed.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(Self.trimmed(signed[$0]!))\n" }.joined()
        let encodedQuery: [(name: String, value: String)] = query.map { (Self.encode($0.0), Self.encode($0.1)) }
        let sortedQuery = encodedQuery.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        let canonicalQuery = sortedQuery.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
        let canonicalRequest = [
            method, path, canonicalQuery, canonicalHeaders, names.joined(separator: ";"), payloadHash
        ]
        .joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
        let signature = Self.hex(
            HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey(day: day)))
        var result = signed
        result["authorization"] =
            """
            AWS4-HMAC-SHA256 \
            Credential=\(credentials.accessKeyID)/\(scope),\
            SignedHeaders=\(names.joined(separator: ";")),\
            Signature=\(signature)
            """
        return result
    }

    /// The key of one day, region and service, derived from the secret.
    private func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// What `x-amz-content-sha256` says of a payload left unsigned: one sent with its
    /// `Content-MD5`, which is signed, and which the service checks the bytes against.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// The SHA-256 of a payload, as `x-amz-content-sha256` carries it.
    public static func payloadHash(_ data: Data) -> String { hex(SHA256.hash(data: data)) }

    /// The SHA-256 of a body to send, read in place.
    static func payloadHash(_ body: ByteBuffer) -> String {
        body.withUnsafeReadableBytes { hex(SHA256.hash(data: $0)) }
    }

    /// `20130524T000000Z` and `20130524`, in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
        return (day + String(format: "T%02d%02d%02dZ", c.hour!, c.minute!, c.second!), day)
    }

    /// RFC 3986 percent-encoding of everything but unreserved characters, as SigV4 wants
    /// query names and values (and, with `/` kept, object keys in paths).
    public static func encode(_ text: String, keepingSlash: Bool = false) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: "/") where keepingSlash:
                result.append("/")
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    private static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        HexText.lowercase(digest)
    }
}
