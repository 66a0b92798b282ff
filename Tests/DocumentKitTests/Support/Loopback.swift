import Foundation

/// TCP sockets on 127.0.0.1, for the servers the tests start (moto, a faulty server): one
/// place that spells out `sockaddr_in`.
enum Loopback {
    /// A new TCP socket.
    static func socket() -> Int32 {
        #if canImport(Glibc)
            return Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            return Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// Binds `socket` to 127.0.0.1 on a port the system picks, listening with `backlog` when
    /// given, and returns the port, or `nil` when the system refused.
    static func bind(_ socket: Int32, listening backlog: Int32? = nil) -> Int? {
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
                    && (backlog.map { listen(socket, $0) == 0 } ?? true)
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// `count` different ports of 127.0.0.1 that nothing listens on now, for a server to
    /// take (the kernel picks them from its ephemeral range; all are held until all are had).
    static func freePorts(_ count: Int) throws -> [Int] {
        let sockets = (0..<count).map { _ in socket() }
        defer { sockets.forEach { close($0) } }
        return try sockets.map { socket in
            guard let port = bind(socket) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "no free port on 127.0.0.1"])
            }
            return port
        }
    }

    /// Whether something accepts connections on `port` of 127.0.0.1.
    static func accepts(_ port: Int) -> Bool {
        guard let socket = connected(to: port) else { return false }
        close(socket)
        return true
    }

    /// A new socket connected to `port` of 127.0.0.1, or `nil` when nothing accepts there.
    static func connected(to port: Int) -> Int32? {
        let socket = socket()
        var address = address(port: port)
        let made = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard made else {
            close(socket)
            return nil
        }
        return socket
    }

    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
