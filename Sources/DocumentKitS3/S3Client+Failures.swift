import AsyncHTTPClient
import DocumentKitCore
import Foundation
import NIOCore

extension S3Client {
    /// The failure of a request that got no full answer, in plain words: what happened to
    /// the connection, never the HTTP library's type names
    /// (`HTTPClientError.remoteConnectionClosed`), which tell a user nothing. A connection
    /// never made is `unreachable` (not retried); one that failed once made, or gave no
    /// answer in time, is `interrupted` (retried).
    func interrupted(_ error: any Error, resource: String) -> S3Error {
        let (words, connected) = Self.plainWords(for: error, endpoint: endpoint.absoluteString, timeout: timeout)
        var failure = S3Error(connected ? .interrupted : .unreachable, message: words, resource: resource)
        if let error = error as? HTTPClientError, [.deadlineExceeded, .readTimeout, .writeTimeout].contains(error) {
            failure.isTimeout = true
        }
        return failure
    }

    /// What went wrong, as a sentence that names the endpoint, and whether the connection
    /// had been made.
    static func plainWords(for error: any Error, endpoint: String, timeout: TimeAmount) -> (String, connected: Bool) {
        let seconds = timeout.nanoseconds / 1_000_000_000
        // A system call that failed (NIO says `connection reset (error set): Connection
        // refused) (errno: 111)`): in the system's words.
        let text = "\(error)"
        if let range = text.range(of: "(errno: "), let number = Int32(text[range.upperBound...].prefix { $0.isNumber })
        {
            let reason = SystemError.reason(errno: number)
            return [ECONNRESET, EPIPE].contains(number)
                ? ("the connection to \(endpoint) broke: \(reason)", true)
                : ("cannot reach \(endpoint): \(reason)", false)
        }
        guard let error = error as? HTTPClientError else {
            // TLS's errors (NIOSSLError, BoringSSL's) name no cause a user can act on beyond this.
            if ["SSL", "TLS", "certificate"].contains(where: { text.localizedCaseInsensitiveContains($0) }) {
                return (
                    "the secure (TLS) connection to \(endpoint) failed: check the endpoint's address and certificate",
                    false
                )
            }
            // NIO's HTTP parser ending a body early ("stream ended at an unexpected time"),
            // or any other failure once connected.
            return ("the answer from \(endpoint) broke off", true)
        }
        if [.connectTimeout, .socksHandshakeTimeout, .tlsHandshakeTimeout].contains(error) {
            return ("cannot reach \(endpoint): no connection within the timeout", false)
        }
        if [.deadlineExceeded, .readTimeout, .writeTimeout].contains(error) {
            return ("\(endpoint) stopped answering: no answer within \(seconds) s", true)
        }
        if error == .remoteConnectionClosed { return ("\(endpoint) closed the connection before it answered", true) }
        if error == .cancelled { return ("the request to \(endpoint) was cancelled", true) }
        return ("the connection to \(endpoint) failed", true)
    }
}
