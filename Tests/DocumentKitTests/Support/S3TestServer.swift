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

    /// Keys the server accepts when it checks them (`checkingCredentials`), with a bucket
    /// made with them.
    private(set) var credentials = (id: "testing", secret: "testing")

    /// Starts a server. `checkingCredentials`: it refuses requests not signed with
    /// ``credentials`` (moto checks keys once its first few, unchecked, calls have made a
    /// user, the user's policy and the user's key); `bucket` is made with them.
    init(checkingCredentials: Bool = false, bucket: String? = nil) throws {
        // A port from the ephemeral range is asked of the kernel by binding port 0.
        let port = try Self.freePort()
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        process.executableURL = URL(fileURLWithPath: Self.program)
        process.arguments = ["-H", "127.0.0.1", "-p", "\(port)"]
        if checkingCredentials {
            process.environment = ProcessInfo.processInfo.environment.merging(["INITIAL_NO_AUTH_ACTION_COUNT": "3"]) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready when it accepts a connection; moto starts in about a second.
        let deadline = Date().addingTimeInterval(30)
        while !Loopback.accepts(port) {
            guard Date() < deadline, process.isRunning else {
                kill(process.processIdentifier, SIGKILL)
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "moto_server did not start on port \(port)"])
            }
            usleep(100_000)
        }
        if checkingCredentials || bucket != nil {
            try setUp(user: checkingCredentials, bucket: bucket)
        }
    }

    /// Makes the user and its key (with boto3, beside moto), and the bucket.
    private func setUp(user: Bool, bucket: String?) throws {
        let script = """
            import boto3, json, sys
            url = sys.argv[1]
            keys = dict(aws_access_key_id="testing", aws_secret_access_key="testing")
            if sys.argv[2] == "user":
                iam = boto3.client("iam", endpoint_url=url, region_name="us-east-1", **keys)
                iam.create_user(UserName="pusher")
                iam.put_user_policy(UserName="pusher", PolicyName="s3", PolicyDocument=json.dumps(
                    {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
                key = iam.create_access_key(UserName="pusher")["AccessKey"]
                keys = dict(aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
            if sys.argv[3]:
                boto3.client("s3", endpoint_url=url, region_name="us-east-1", **keys).create_bucket(Bucket=sys.argv[3])
            print(keys["aws_access_key_id"], keys["aws_secret_access_key"])
            """
        let python = ExternalTool(name: "python3", path: (Self.program as NSString).deletingLastPathComponent + "/python3")
        let result = try python.run(["-c", script, endpoint.absoluteString, user ? "user" : "", bucket ?? ""])
        let words = result.output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard result.status == 0, words.count == 2 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot set up moto: \(result.standardError)"])
        }
        credentials = (words[0], words[1])
    }

    /// The environment docctl reaches the server with: its endpoint and keys.
    var environment: [String: String] {
        ["AWS_ENDPOINT_URL": endpoint.absoluteString, "AWS_ACCESS_KEY_ID": credentials.id, "AWS_SECRET_ACCESS_KEY": credentials.secret,
         "AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null"]
    }

    deinit {
        // moto's server does not stop on SIGTERM: kill it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func freePort() throws -> Int {
        let socket = Loopback.socket()
        defer { close(socket) }
        guard let port = Loopback.bind(socket) else { throw CocoaError(.fileWriteUnknown) }
        return port
    }
}
