import DocumentKitCore
import Foundation
import Testing

/// The S3-compatible servers the remote tests run against, each on 127.0.0.1: moto's
/// model of S3, and Ceph's radosgw, a production server with deviations of its own. A test
/// of an S3 remote takes one as its argument and runs on both.
enum S3Service: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case moto, radosgw
    var testDescription: String { rawValue }
}

/// An S3-compatible server for one test, with its endpoint, keys and the environment docctl
/// reaches it with: a moto server of its own (`scripts/setup.sh` installs it in
/// `.tools/moto`), started on a free port and stopped when the value goes; or the test
/// process's radosgw (``RadosGW``), in which the test's buckets, named by ``bucket(_:)``,
/// are its own and removed when the value goes. The code under test knows only the endpoint.
///
/// A radosgw test where Ceph is not installed is skipped (cancelled) with the reason,
/// unless `DOCUMENTKIT_REQUIRE_RADOSGW` is set (`.ci/run`), where it fails.
final class S3TestServer {
    /// `moto_server`, where setup puts it.
    static let program = Fixtures.repository.appendingPathComponent(".tools/moto/bin/moto_server").path
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: program) }
    /// boto3, beside moto: the tests' second S3 client (`Tests/S3Tools/s3.py`).
    static let boto3 = ExternalTool(name: "python3", path: (program as NSString).deletingLastPathComponent + "/python3")
    static let boto3Script = Fixtures.repository.appendingPathComponent("Tests/S3Tools/s3.py").path

    let service: S3Service
    let endpoint: URL
    /// What makes this test's bucket names its own on a server other tests share: a
    /// number of this server's (`-7`); nothing on moto, which is the test's alone.
    private let suffix: String
    private let moto: Process?
    private static let made = Protected(0)

    /// Keys the server accepts when it checks them (`checkingCredentials`; radosgw always
    /// does), with a bucket made with them.
    private(set) var credentials = (id: "testing", secret: "testing")

    /// Starts a server of `service`. `checkingCredentials`: moto refuses requests not signed
    /// with ``credentials`` (it checks keys once its first few, unchecked, calls have made a
    /// user, the user's policy and the user's key); `bucket`: ``bucket(_:)`` of that name is
    /// made with them.
    init(_ service: S3Service = .moto, checkingCredentials: Bool = false, bucket: String? = nil) throws {
        self.service = service
        switch service {
        case .moto:
            let (address, process) = try Self.startMoto(checkingCredentials: checkingCredentials)
            endpoint = address
            moto = process
            suffix = ""
        case .radosgw:
            endpoint = try RadosGW.forThisTest().endpoint
            moto = nil
            let serial = Self.made.mutate { count in
                count += 1
                return count
            }
            suffix = "-\(serial)"
            credentials = RadosGW.credentials
        }
        if checkingCredentials, service == .moto {
            let keys = try boto3(["make-user"]).split(separator: " ").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard keys.count == 2 else { throw Self.failure("make-user printed no key", service: service) }
            credentials = (keys[0], keys[1])
        }
        if let bucket { try boto3(["make-bucket", self.bucket(bucket)]) }
    }

    /// The bucket called `name` in this test: on radosgw, with this server's suffix.
    func bucket(_ name: String) -> String { name + suffix }

    /// The environment docctl reaches the server with: its endpoint and keys. (A proxy
    /// in front of the server, such as a fault-injecting one, goes in here: the endpoint
    /// is the one docctl is given.)
    var environment: [String: String] {
        [
            "AWS_ENDPOINT_URL": endpoint.absoluteString, "AWS_ACCESS_KEY_ID": credentials.id,
            "AWS_SECRET_ACCESS_KEY": credentials.secret,
            "AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null"
        ]
    }

    /// Runs `Tests/S3Tools/s3.py` (boto3) on this server with this test's keys; returns what
    /// it printed, or throws what it said on failure.
    @discardableResult
    func boto3(_ arguments: [String]) throws -> String {
        let result = try Self.boto3.run(
            [Self.boto3Script] + arguments, environment: TestEnvironment.clean(adding: environment)
        )
        guard result.status == 0 else {
            throw Self.failure("s3.py \(arguments.joined(separator: " ")): \(result.standardError)", service: service)
        }
        return result.output
    }

    deinit {
        if let moto {
            // moto's server does not stop on SIGTERM: kill it.
            kill(moto.processIdentifier, SIGKILL)
            moto.waitUntilExit()
        } else {
            // The shared server's memory holds what the buckets hold: freed for the tests to
            // come. A bucket left (the removal failed) costs memory, not a result.
            _ = try? boto3(["remove-buckets", suffix])
        }
    }

    /// Starts a moto server on a free port; returns its endpoint once it accepts connections.
    private static func startMoto(checkingCredentials: Bool) throws -> (URL, Process) {
        let port = try Loopback.freePorts(1)[0]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.program)
        process.arguments = ["-H", "127.0.0.1", "-p", "\(port)"]
        process.environment = TestEnvironment.clean(
            adding: checkingCredentials ? ["INITIAL_NO_AUTH_ACTION_COUNT": "3"] : [:])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // moto starts in about a second.
        let deadline = Date().addingTimeInterval(30)
        while !Loopback.accepts(port) {
            guard Date() < deadline, process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                throw failure("moto_server did not start on port \(port)", service: .moto)
            }
            usleep(100_000)
        }
        return (URL(string: "http://127.0.0.1:\(port)")!, process)
    }

    private static func failure(_ message: String, service: S3Service) -> CocoaError {
        CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "\(service): \(message)"])
    }
}
