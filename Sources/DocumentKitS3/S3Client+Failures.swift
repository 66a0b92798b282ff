import AsyncHTTPClient
import DocumentKitCore
import Foundation
import NIOCore

extension S3Client {
    /// The failure of a request that got no full answer, as `S3Error.unreachable` in plain
    /// words: what happened to the connection, never the HTTP library's type names
    /// (`HTTPClientError.remoteConnectionClosed`), which tell a user nothing.
    func unreachable(_ error: any Error, resource: String) -> S3Error {
        S3Error(.unreachable, message: Self.plainWords(for: error, endpoint: endpoint.absoluteString, timeout: timeout), resource: resource)
    }

    /// What went wrong, as a sentence that names the endpoint.
    static func plainWords(for error: any Error, endpoint: String, timeout: TimeAmount) -> String {
        let seconds = timeout.nanoseconds / 1_000_000_000
        // A system call that failed (NIO says `connection reset (error set): Connection
        // refused) (errno: 111)`): in the system's words.
        let text = "\(error)"
        if let range = text.range(of: "(errno: "), let number = Int32(text[range.upperBound...].prefix { $0.isNumber }) {
            let reason = DocumentKitError.systemReason(errno: number)
            return [ECONNRESET, EPIPE].contains(number) ? "the connection to \(endpoint) broke: \(reason)" : "cannot reach \(endpoint): \(reason)"
        }
        guard let error = error as? HTTPClientError else {
            // TLS's errors (NIOSSLError, BoringSSL's) name no cause a user can act on beyond this.
            let secure = ["SSL", "TLS", "certificate"].contains { text.localizedCaseInsensitiveContains($0) }
            return secure ? "the secure (TLS) connection to \(endpoint) failed: check the endpoint's address and certificate"
                : "the connection to \(endpoint) failed"
        }
        if [.connectTimeout, .socksHandshakeTimeout, .tlsHandshakeTimeout].contains(error) {
            return "cannot reach \(endpoint): no connection within the timeout"
        }
        if [.deadlineExceeded, .readTimeout, .writeTimeout].contains(error) {
            return "\(endpoint) stopped answering: no answer within \(seconds) s"
        }
        if error == .remoteConnectionClosed { return "\(endpoint) closed the connection before it answered" }
        if error == .cancelled { return "the request to \(endpoint) was cancelled" }
        return "the connection to \(endpoint) failed"
    }
}
