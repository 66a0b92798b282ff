import Foundation
import Testing

/// An S3-compatible server on 127.0.0.1 for one test: moto's (`scripts/setup.sh` installs
/// it in `.tools/moto`), started on a free port and stopped when the value goes. The code
/// under test knows only its endpoint; nothing depends on it being moto.
final class S3TestServer {
    /// `moto_server`, where setup puts it.
    static let program = Fixtures.repository.appendingPathComponent(".tools/moto/bin/moto_server").path
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: program) }

    let endpoint: URL
    private let process = Process()

    init() throws {
        // A port from the ephemeral range is asked of the kernel by binding port 0.
        let port = try Self.freePort()
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        process.executableURL = URL(fileURLWithPath: Self.program)
        process.arguments = ["-H", "127.0.0.1", "-p", "\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready when it accepts a connection; moto starts in about a second.
        let deadline = Date().addingTimeInterval(30)
        while !Self.accepts(port) {
            guard Date() < deadline, process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "moto_server did not start on port \(port)"])
            }
            usleep(100_000)
        }
    }

    deinit {
        // moto's server does not stop on SIGTERM: kill it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func freePort() throws -> Int {
        let socket = tcpSocket()
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(_ port: Int) -> Bool {
        let socket = tcpSocket()
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func tcpSocket() -> Int32 {
        #if canImport(Glibc)
        return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        return socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }
}
