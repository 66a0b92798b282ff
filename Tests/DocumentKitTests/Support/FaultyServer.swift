import Foundation

/// A TCP server on 127.0.0.1 that fails as networks do, for the errors of an S3 remote:
/// it closes each connection as soon as it is made (`closing`), or takes the request and
/// never answers (`silent`, a frozen server). Stopped when the value goes.
final class FaultyServer: @unchecked Sendable {
    enum Behaviour { case closing, silent }

    let port: Int
    var endpoint: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let lock = NSLock()
    private var held: [Int32] = []

    init(_ behaviour: Behaviour) throws {
        let listener = Loopback.socket()
        guard let port = Loopback.bind(listener, listening: 16) else {
            close(listener)
            throw CocoaError(.fileWriteUnknown)
        }
        self.port = port
        self.listener = listener
        Thread.detachNewThread { [weak self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                switch behaviour {
                case .closing:
                    // After the request's head: a clean end of the stream (not a reset, which
                    // unread bytes would cause), before any answer.
                    Thread.detachNewThread {
                        var buffer = [UInt8](repeating: 0, count: 65_536)
                        var head: [UInt8] = []
                        while !head.containsHeadEnd, case let count = read(connection, &buffer, buffer.count), count > 0
                        { head += buffer.prefix(count) }
                        shutdown(connection, Int32(SHUT_WR))
                        while read(connection, &buffer, buffer.count) > 0 {}
                        close(connection)
                    }
                case .silent:
                    guard let self else {
                        close(connection)
                        return
                    }
                    self.lock.withLock { self.held.append(connection) }
                }
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        lock.withLock { held.forEach { close($0) } }
    }
}

extension [UInt8] {
    /// Whether an HTTP request's head has ended (`\r\n\r\n`).
    fileprivate var containsHeadEnd: Bool {
        count >= 4
            && (0...(count - 4)).contains {
                self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10
            }
    }
}
