import Foundation
import Testing

/// Ceph's S3 server, radosgw, on 127.0.0.1: a production S3 implementation beside moto's
/// model of one, with deviations of its own that the client must take (DESIGN.md, "Two S3
/// servers"). One single-node cluster (a monitor, an in-memory OSD, radosgw) serves the
/// whole test process, started by the first test that asks (`Tests/RadosGW/start.sh`, 2-3 s)
/// and stopped when the process exits, or, should it die, by a watchdog; each test works in
/// buckets of its own (``S3TestServer``).
final class RadosGW: Sendable {
    /// The programs the cluster needs: Debian's ceph-mon, ceph-osd, radosgw and ceph-common,
    /// and curl (scripts/setup.sh installs them).
    static let programs = ["ceph-mon", "ceph-osd", "radosgw", "radosgw-admin", "monmaptool", "ceph", "curl"]
    static let isInstalled = programs.allSatisfy { ExternalTool(name: $0).isAvailable }
    /// Set by `.ci/run`, so that CI fails rather than skips when the cluster cannot run.
    static let isRequired = ProcessInfo.processInfo.environment["DOCUMENTKIT_REQUIRE_RADOSGW"] != nil
    static let skipReason =
        "needs Ceph's radosgw (Debian's ceph-mon, ceph-osd, radosgw, ceph-common): run scripts/setup.sh"

    /// The process's cluster, started on first use; its failure to start is each test's.
    static let shared = Result { try RadosGW() }

    /// The cluster, for the test running: where Ceph is not installed, the test is
    /// cancelled (reported as skipped, with the reason), unless ``isRequired``.
    static func forThisTest() throws -> RadosGW {
        guard isInstalled else {
            if isRequired {
                throw CocoaError(
                    .fileNoSuchFile,
                    userInfo: [
                        NSLocalizedDescriptionKey: "DOCUMENTKIT_REQUIRE_RADOSGW is set, but the test \(skipReason)"
                    ])
            }
            try Test.cancel(Comment(rawValue: skipReason))
        }
        return try shared.get()
    }

    static let scripts = Fixtures.repository.appendingPathComponent("Tests/RadosGW")

    let endpoint: URL
    /// The S3 user's keys, which start.sh gives it.
    static let credentials = (id: "TESTACCESSKEY0000001", secret: "testsecretkey0000000000000000000000000001")
    /// The cluster's folder: its configuration, logs, and the daemons' pids (`pids`).
    let folder: URL

    private init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "DocumentKitTests-radosgw-\(getpid())")
        self.folder = folder
        // Ports the kernel has free now (moto's servers take theirs the same way), and the
        // OSD's range of 100 from one of 100 bases below the kernel's ephemeral range.
        let ports = try Loopback.freePorts(3)
        let (rgw, monV1, monV2) = (ports[0], ports[1], ports[2])
        let environment = TestEnvironment.clean(adding: [
            "RGW_PORT": "\(rgw)", "MON_PORT_V1": "\(monV1)", "MON_PORT_V2": "\(monV2)",
            "OSD_PORT_MIN": "\(20_000 + Int(getpid()) % 100 * 100)",
            "MEMSTORE_BYTES": "\(2 << 30)", "S3_ACCESS_KEY": Self.credentials.id,
            "S3_SECRET_KEY": Self.credentials.secret
        ])
        // Its output to a file, not to pipes: the daemons it starts would hold them open, and
        // reading them to their end would never end (start.sh also closes what it inherits).
        let started = try ExternalTool(name: "sh", path: "/bin/sh")
            .run(
                [
                    "-c",
                    #"mkdir -p "$1" && "$0" "$1" >"$1/start.log" 2>&1 </dev/null; status=$?; cat "$1/start.log"; exit $status"#,
                    Self.scripts.appendingPathComponent("start.sh").path, folder.path
                ], environment: environment)
        guard started.status == 0 else {
            let logs =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("log").path)) ?? []
            let tails = logs.sorted().map { name in
                let text =
                    (try? String(contentsOf: folder.appendingPathComponent("log/\(name)"), encoding: .utf8)) ?? ""
                return "\(name): \(text.split(separator: "\n").suffix(5).joined(separator: "\n"))"
            }
            Self.stop(folder)
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        """
                    radosgw did not start (Tests/RadosGW/start.sh, exit \(started.status)): \
                    \(started.output)\(started.standardError)\n\(tails.joined(separator: "\n"))
                    """
                ])
        }
        endpoint = URL(string: "http://127.0.0.1:\(rgw)")!
        // Stopped at exit; should the process die instead, the watchdog stops it.
        atexit { if case .success(let server) = RadosGW.shared { RadosGW.stop(server.folder) } }
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = [
            "-c", #"while kill -0 "$0" 2>/dev/null; do sleep 1; done; STOP_SIGNAL=KILL "$1" "$2"; rm -rf "$2""#,
            "\(getpid())", Self.scripts.appendingPathComponent("stop.sh").path, folder.path
        ]
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try watchdog.run()
    }

    /// Kills the daemons start.sh recorded in `folder` (a memstore cluster keeps nothing
    /// worth a clean stop) and removes the folder. Only system calls: it runs at exit.
    static func stop(_ folder: URL) {
        let pids = (try? String(contentsOf: folder.appendingPathComponent("pids"), encoding: .utf8)) ?? ""
        for line in pids.split(separator: "\n") {
            if let pid = line.split(separator: " ").last.flatMap({ Int32($0) }) { kill(pid, SIGKILL) }
        }
        try? FileManager.default.removeItem(at: folder)
    }
}
