import Foundation

/// An HTTP proxy on 127.0.0.1 in front of an S3 server (moto) that fails as object stores
/// and networks do, for a seeded share of the requests, and counts what it did: a 503
/// SlowDown or a 500 InternalError instead of forwarding, a 500 after forwarding (the
/// write applied, its answer lost), an answer cut short (closed mid-body, its
/// Content-Length promising more), and an answer that stalls for a few seconds and then
/// closes. It can also add latency each way. Each connection carries one request (the
/// proxy answers `Connection: close`). Stopped when the value goes.
final class FaultProxy: @unchecked Sendable {
    enum Fault: String, CaseIterable, Sendable {
        case slowDown, internalError, lostAnswer, cutShort, stall
        /// A request's body with one byte changed on the way (the service should refuse it
        /// by its Content-MD5, or store it and answer the ETag of what it got).
        case damagedBody

        /// What a network and a busy store do: every fault but a damaged body, which TCP's
        /// checksum makes rare.
        static let network: [Fault] = [.slowDown, .internalError, .lostAnswer, .cutShort, .stall]
    }

    let port: Int
    var endpoint: String { "http://127.0.0.1:\(port)" }
    let seed: UInt64
    private let upstream: Int
    private let rate: Double
    private let faults: [Fault]
    private let stallSeconds: Double
    private let latency: Double
    private let only: @Sendable (String) -> Bool
    private let limit: Int
    private let listener: Int32
    private let lock = NSLock()
    private var random: SeededRandom
    private var next = 0
    private var faulted: [Fault: Int] = [:]
    private var forwarded = 0
    private var inFlight = 0
    private var mostInFlight = 0

    /// A proxy to the server on `upstreamPort` that faults a share `rate` of requests
    /// (chosen with `seed`), taking `faults` in turn, so that each is made once the proxy
    /// has faulted as many requests as there are kinds; a stall lasts `stallSeconds`;
    /// `latency` seconds are added before forwarding each request and before each answer.
    /// Only requests whose first line (`PUT /bucket/key?… HTTP/1.1`) `only` accepts are
    /// faulted, and no more than `limit`.
    init(
        upstreamPort: Int, seed: UInt64, rate: Double, faults: [Fault] = Fault.network, stallSeconds: Double = 3,
        latency: Double = 0,
        limit: Int = .max, only: @escaping @Sendable (String) -> Bool = { _ in true }
    ) throws {
        let listener = Loopback.socket()
        guard let port = Loopback.bind(listener, listening: 64) else {
            close(listener)
            throw CocoaError(.fileWriteUnknown)
        }
        self.port = port
        self.listener = listener
        self.upstream = upstreamPort
        self.seed = seed
        self.rate = rate
        self.faults = faults
        self.stallSeconds = stallSeconds
        self.latency = latency
        self.only = only
        self.limit = limit
        random = SeededRandom(seed: seed)
        Thread.detachNewThread { [weak self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                guard let self else {
                    close(connection)
                    return
                }
                Thread.detachNewThread { self.serve(connection) }
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// How many requests each fault was made on.
    var counts: [Fault: Int] { lock.withLock { faulted } }
    /// How many requests came, faulted or not.
    var requests: Int { lock.withLock { forwarded + faulted.values.reduce(0, +) } }
    /// The most requests the proxy held at once, from the moment each had arrived whole to
    /// the end of its answer: what shows that a client sent them side by side.
    var mostAtOnce: Int { lock.withLock { mostInFlight } }

    /// What the proxy did, for a test's messages: its seed, its requests and each fault's count.
    var summary: String {
        let counts = self.counts
        return "seed \(seed): \(requests) requests, "
            + faults.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ")
    }

    /// The fault for the next request, whose first line is `line`, or `nil` to pass it.
    private func nextFault(_ line: String) -> Fault? {
        lock.withLock {
            guard !faults.isEmpty, next < limit, only(line), Double(random.next() >> 11) / Double(1 << 53) < rate else {
                forwarded += 1
                return nil
            }
            let fault = faults[next % faults.count]
            next += 1
            faulted[fault, default: 0] += 1
            return fault
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = HTTPMessage.read(from: client) else { return }
        lock.withLock {
            inFlight += 1
            mostInFlight = max(mostInFlight, inFlight)
        }
        // Held until the answer starts back: a client that waits for each answer before it
        // sends the next request is never seen holding two.
        var holding = true
        func answering() {
            if holding { lock.withLock { inFlight -= 1 } }
            holding = false
        }
        defer { answering() }
        pause(latency)
        let fault = nextFault(String(decoding: request.head.prefix { $0 != 13 }, as: UTF8.self))
        let isHead = request.head.starts(with: Array("HEAD ".utf8))
        if fault == .slowDown || fault == .internalError {
            answering()
            return HTTPMessage.write(Self.errorAnswer(for: fault!, head: isHead), to: client)
        }
        guard let server = Loopback.connected(to: upstream) else { return }
        var sent = request
        if fault == .damagedBody, !sent.body.isEmpty { sent.body[sent.body.count / 2] ^= 0x20 }
        HTTPMessage.write(sent.closing().bytes, to: server)
        let answer = HTTPMessage.readToEnd(server)
        close(server)
        pause(latency)
        answering()
        switch fault {
        case .lostAnswer?:
            HTTPMessage.write(Self.errorAnswer(for: .lostAnswer, head: isHead), to: client)
        case .cutShort?:
            // Half the body after the whole head; with no body, half the head.
            let whole = answer.closing()
            let cut =
                whole.body.isEmpty
                ? Array(whole.head.prefix(whole.head.count / 2)) : whole.head + whole.body.prefix(whole.body.count / 2)
            HTTPMessage.write(cut, to: client)
        case .stall?:
            let whole = answer.closing()
            if !whole.body.isEmpty {
                HTTPMessage.write(whole.head + whole.body.prefix(whole.body.count / 2), to: client)
            }
            pause(stallSeconds)
        default:
            HTTPMessage.write(answer.closing().bytes, to: client)
        }
    }

    private func pause(_ seconds: Double) {
        if seconds > 0 { usleep(useconds_t(seconds * 1_000_000)) }
    }

    /// The error answer of `fault` as S3 words it: a 503 SlowDown, else a 500 InternalError;
    /// its error document, but for a HEAD, whose answer has none (only the status and the
    /// request id header).
    private static func errorAnswer(for fault: Fault, head: Bool) -> [UInt8] {
        let (status, reason, code, message) =
            fault == .slowDown
            ? (503, "Service Unavailable", "SlowDown", "Please reduce your request rate.")
            : (500, "Internal Server Error", "InternalError", "We encountered an internal error. Please try again.")
        let body =
            """
            <?xml version=\"1.0\" \
            encoding=\"UTF-8\"?>\n<Error><Code>\(code)</Code><Message>\(message)</Message><RequestId>fault-proxy</RequestId></Error>
            """
        let headers =
            """
            HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/xml\r\nContent-Length: \
            \(body.utf8.count)\r\nx-amz-request-id: fault-proxy\r\nConnection: close\r\n\r\n
            """
        return Array((head ? headers : headers + body).utf8)
    }
}

/// One HTTP request or answer as bytes: its head (through the blank line) and its body.
private struct HTTPMessage {
    var head: [UInt8]
    var body: [UInt8]
    var bytes: [UInt8] { head + body }

    /// The message with `Connection: close` in place of any `Connection` header.
    func closing() -> HTTPMessage {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let kept = lines.filter { !$0.lowercased().hasPrefix("connection:") } + ["Connection: close"]
        return HTTPMessage(head: Array((kept.joined(separator: "\r\n") + "\r\n\r\n").utf8), body: body)
    }

    /// Reads a request: its head, then as many bytes of body as its Content-Length says.
    static func read(from socket: Int32) -> HTTPMessage? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var end: Int?
        while end == nil {
            let count = Foundation.read(socket, &buffer, buffer.count)
            guard count > 0 else { return nil }
            data += buffer.prefix(count)
            end = headEnd(data)
        }
        let head = Array(data[..<end!])
        var body = Array(data[end!...])
        let length =
            String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
            .first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        while body.count < length {
            let count = Foundation.read(socket, &buffer, min(buffer.count, length - body.count))
            guard count > 0 else { return nil }
            body += buffer.prefix(count)
        }
        return HTTPMessage(head: head, body: body)
    }

    /// Reads an answer to the end of the connection (the server closes it: `Connection: close`).
    static func readToEnd(_ socket: Int32) -> HTTPMessage {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while case let count = Foundation.read(socket, &buffer, buffer.count), count > 0 {
            data += buffer.prefix(count)
        }
        let end = headEnd(data) ?? data.count
        return HTTPMessage(head: Array(data[..<end]), body: Array(data[end...]))
    }

    /// Writes all of `bytes`, ignoring a peer that went (no SIGPIPE).
    static func write(_ bytes: [UInt8], to socket: Int32) {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
            var on: Int32 = 1
            setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, flags) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// Where the head ends: just past its `\r\n\r\n`.
    private static func headEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for index in 0...(data.count - 4)
        where data[index] == 13 && data[index + 1] == 10 && data[index + 2] == 13 && data[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
