import DocumentKitS3
import Foundation
import Testing

@testable import DocumentKit

/// push, clone and pull on an S3 remote behind ``FaultProxy``: a real S3-compatible server
/// (moto, and Ceph's radosgw) whose answers fail as object stores and networks fail, in a seeded share of the
/// requests. Every command ends as it would on a perfect link, or fails with one line that
/// says what failed, where, and the exit status of a remote that did not answer.
@Suite struct RemoteFaultTests {
    static let enabled = S3TestServer.isAvailable
    static let skipReason: Comment = "needs moto_server for the S3 remote: run scripts/setup.sh"
    /// The proxy's seed: a failure names it, and `DOCUMENTKIT_FAULT_SEED` runs another.
    static let seed = UInt64(ProcessInfo.processInfo.environment["DOCUMENTKIT_FAULT_SEED"] ?? "") ?? 24

    /// A remote in a bucket of its own on `service`, behind a proxy; docctl reaches the proxy.
    final class Remote {
        let server: S3TestServer
        let proxy: FaultProxy
        let directory: TemporaryDirectory
        let bucket: String
        let address: String

        /// `onlyGetOf`: only the GETs of that file of the remote are faulted.
        init(
            _ service: S3Service, rate: Double, faults: [FaultProxy.Fault], in directory: TemporaryDirectory,
            onlyGetOf file: String? = nil,
            latency: Double = 0
        ) throws {
            server = try S3TestServer(service, bucket: "backups")
            let bucket = server.bucket("backups")
            let faulted = file.map { "GET /\(bucket)/team/garden/\(SigV4Signer.encode($0)) " }
            let only: @Sendable (String) -> Bool = { line in faulted.map { line.hasPrefix($0) } ?? true }
            proxy = try FaultProxy(
                upstreamPort: try #require(server.endpoint.port), seed: RemoteFaultTests.seed, rate: rate,
                faults: faults, stallSeconds: 5,
                latency: latency, only: only)
            self.bucket = bucket
            address = "s3://\(bucket)/team/garden"
            self.directory = directory
        }

        /// Runs docctl with the proxy as the S3 endpoint.
        func docctl(_ arguments: [String]) throws -> ExternalTool.Result {
            try Run.docctl(
                arguments, in: directory.url,
                environment: server.environment.merging(["AWS_ENDPOINT_URL": proxy.endpoint]) { $1 })
        }

        /// Runs a command on the remote, with a short deadline (a stall costs 4 s, enough
        /// for an 8 MiB part on a loaded machine) and retries enough for a link this bad;
        /// expects it to succeed and returns its JSON.
        @discardableResult
        func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
            let result = try docctl(arguments + ["--timeout", "4", "--retries", "12", "--json"])
            #expect(
                result.status == 0, "\(arguments): \(result.standardError) (\(proxy.summary))",
                sourceLocation: sourceLocation)
            return try #require(
                try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any], "\(result.output)",
                sourceLocation: sourceLocation)
        }

        /// The remote's store, reaching the server itself, not the proxy: to look at the bucket.
        func store() -> S3RemoteStore {
            S3RemoteStore(
                bucket: bucket, prefix: "team/garden", endpoint: server.endpoint, region: "us-east-1",
                credentials: S3Credentials(
                    accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret))
        }
    }

    private func bundle(_ name: String, in directory: TemporaryDirectory) throws -> DocumentBundle {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(name))
    }

    /// With a fifth of the requests faulted (each kind several times), a first push of a
    /// project with a blob that goes up in parts, a second push, a clone, and a pull end
    /// with exactly the project's versions, byte for byte, clones that validate deeply, and
    /// nothing in the bucket but the storage root's files and what the inventory names.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func pushCloneAndPullThroughFaultsEndWithEveryVersionWhole(_ service: S3Service) throws {
        let directory = try TemporaryDirectory()
        // Every kind, stalls (which cost a deadline each) a ninth of the faults.
        let kinds: [FaultProxy.Fault] = [
            .slowDown, .internalError, .lostAnswer, .cutShort, .slowDown, .internalError, .lostAnswer, .cutShort, .stall
        ]
        let remote = try Remote(service, rate: 0.2, faults: kinds, in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        // Over the 8 MiB part size, and not compressible: a multipart upload.
        try Fixtures.write(Fixtures.noise(9 << 20, seed: remote.proxy.seed | 1), to: "survey.png", in: directory.url)
        try Run.succeeding(
            ["attach", "garden.dkproj", "survey.png", "--as", "tasks[0].attachments[+]"], in: directory.url)

        let first = try remote.succeed(["push", "garden.dkproj", remote.address])
        #expect(first["result"] as? String == "created" && first["retries"] is Int, "\(first)")
        try Run.succeeding(["set", "garden.dkproj", "name", "Garden through faults"], in: directory.url)
        let second = try remote.succeed(["push", "garden.dkproj", remote.address])
        #expect(
            second["result"] as? String == "pushed" && (second["newVersions"] as? [String])?.count == 1,
            "\(second) (\(remote.proxy.summary))")

        let cloned = try remote.succeed(["clone", remote.address, "-o", "copy.dkproj"])
        #expect(cloned["retries"] is Int, "\(cloned)")
        try expectSameVersions("copy.dkproj", as: "garden.dkproj", in: directory, proxy: remote.proxy)

        try Run.succeeding(["set", "garden.dkproj", "tasks[0].title", "Edited through faults"], in: directory.url)
        try remote.succeed(["push", "garden.dkproj", remote.address])
        let pulled = try remote.succeed(["pull", "copy.dkproj", remote.address])
        #expect(pulled["result"] as? String == "fast-forward" && pulled["retries"] is Int, "\(pulled)")
        try expectSameVersions("copy.dkproj", as: "garden.dkproj", in: directory, proxy: remote.proxy)

        try expectBucketHoldsOnlyTheRoot(of: "garden.dkproj", in: remote)
        // The proxy really failed them: every kind, and at least a tenth of all requests.
        let counts = remote.proxy.counts
        print("RemoteFaultTests (\(service)): \(remote.proxy.summary)")
        for fault in FaultProxy.Fault.network {
            #expect((counts[fault] ?? 0) > 0, "no \(fault) made (\(remote.proxy.summary))")
        }
        #expect(counts.values.reduce(0, +) * 10 >= remote.proxy.requests, "\(remote.proxy.summary)")
    }

    /// With four transfers at once (issue 24, item 5) through the same faults and 10 ms each
    /// way: the requests really overlap at the proxy, and push, clone and pull end exact,
    /// a part or a file failing while others are under way included.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func transfersSideBySideThroughFaultsEndExact(_ service: S3Service) throws {
        let directory = try TemporaryDirectory()
        let kinds: [FaultProxy.Fault] = [
            .slowDown, .internalError, .lostAnswer, .cutShort, .slowDown, .internalError, .lostAnswer, .cutShort, .stall
        ]
        let remote = try Remote(service, rate: 0.2, faults: kinds, in: directory, latency: 0.01)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        // Three parts of 8 MiB and more: parts side by side, with files beside them.
        try Fixtures.write(Fixtures.noise(17 << 20, seed: remote.proxy.seed | 3), to: "survey.png", in: directory.url)
        try Run.succeeding(
            ["attach", "garden.dkproj", "survey.png", "--as", "tasks[0].attachments[+]"], in: directory.url)

        let first = try remote.succeed(["push", "garden.dkproj", remote.address, "--jobs", "4"])
        #expect(first["result"] as? String == "created", "\(first)")
        #expect(remote.proxy.mostAtOnce >= 2, "\(remote.proxy.mostAtOnce) requests at once (\(remote.proxy.summary))")
        let cloned = try remote.succeed(["clone", remote.address, "-o", "copy.dkproj", "--jobs", "4"])
        #expect(cloned["versions"] as? Int != nil, "\(cloned)")
        try expectSameVersions("copy.dkproj", as: "garden.dkproj", in: directory, proxy: remote.proxy)

        try Run.succeeding(["set", "garden.dkproj", "tasks[0].title", "Edited side by side"], in: directory.url)
        try remote.succeed(["push", "garden.dkproj", remote.address, "--jobs", "4"])
        let pulled = try remote.succeed(["pull", "copy.dkproj", remote.address, "--jobs", "4"])
        #expect(pulled["result"] as? String == "fast-forward", "\(pulled)")
        try expectSameVersions("copy.dkproj", as: "garden.dkproj", in: directory, proxy: remote.proxy)
        try expectBucketHoldsOnlyTheRoot(of: "garden.dkproj", in: remote)
        print("RemoteFaultTests, 4 jobs: \(remote.proxy.summary), \(remote.proxy.mostAtOnce) at once")
        #expect(remote.proxy.counts.values.reduce(0, +) * 10 >= remote.proxy.requests, "\(remote.proxy.summary)")
    }

    /// Versions, documents and blobs of `copy` are those of `original`, and it validates deeply.
    private func expectSameVersions(
        _ copy: String, as original: String, in directory: TemporaryDirectory, proxy: FaultProxy,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let theirs = try bundle(original, in: directory)
        let ours = try bundle(copy, in: directory)
        #expect(
            try ours.manifest.versions.map(\.id) == theirs.manifest.versions.map(\.id), "\(proxy.summary)",
            sourceLocation: sourceLocation)
        for version in try theirs.manifest.versions {
            #expect(
                try ours.documentData(of: version) == theirs.documentData(of: version),
                "\(version.id) (\(proxy.summary))", sourceLocation: sourceLocation)
        }
        let validated = try Run.docctl(["validate", "--deep", copy], in: directory.url)
        #expect(
            validated.status == 0, "\(validated.output)\(validated.standardError) (\(proxy.summary))",
            sourceLocation: sourceLocation)
    }

    /// Lists the bucket (through the server itself) and expects the root's declaration files and
    /// the object's files: its declaration, its inventory and sidecar, each version's, and
    /// the content its manifest names; nothing a retried or lost request left besides.
    private func expectBucketHoldsOnlyTheRoot(of bundleName: String, in remote: Remote) throws {
        let store = remote.store()
        let objectPath = OCFLStorageRoot.objectPath(
            for: OCFLDeposit.objectID(of: try bundle(bundleName, in: remote.directory).manifest))
        let inventory = try JSONDecoder().decode(
            OCFLInventory.self, from: store.readFile("\(objectPath)/inventory.json"))
        var expected = Set(try OCFLStorageRoot.declarationFiles().map(\.path))
        expected.formUnion(
            [OCFLObject.declaration, "inventory.json", "inventory.json.sha512"].map { "\(objectPath)/\($0)" })
        // No version keeps a copy of the inventory of its own (FORMAT.md §10).
        expected.formUnion(inventory.manifest.values.joined().map { "\(objectPath)/\($0)" })
        let listed = Set(try store.list(prefix: "").keys)
        #expect(
            listed == expected,
            """
            extra: \(listed.subtracting(expected).sorted()); missing: \(expected.subtracting(listed).sorted()) \
            (\(remote.proxy.summary))
            """
        )
    }

    // MARK: Messages

    /// A service that answers every request with 503 SlowDown: the push gives up after the
    /// retries it was given, with one line naming the remote, the request, the file, the
    /// status and the request id, and exit 69; the bundle is untouched and so is the bucket.
    @Test(.enabled(if: enabled, skipReason))
    func retriesThatRunOutEndWithOneLineAndStatus69() throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(.moto, rate: 1, faults: [.slowDown], in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj"))

        let push = try remote.docctl(["push", "garden.dkproj", remote.address, "--retries", "2"])
        #expect(
            push.status == 69
                && push.standardError == """
                    error: \(remote.address): HeadObject 0=ocfl_1.1: HTTP 503 Service Unavailable (request fault-proxy; gave up after 2 retries); run push again to resume

                    """,
            "\(push.standardError)")
        let clone = try remote.docctl(["clone", remote.address, "-o", "copy.dkproj", "--retries", "1"])
        #expect(
            clone.status == 69
                && clone.standardError == """
                    error: \(remote.address): HeadObject 0=ocfl_1.1: HTTP 503 Service Unavailable (request fault-proxy; gave up after 1 retry); run clone again

                    """,
            "\(clone.standardError)")
        #expect(
            remote.proxy.counts[.slowDown] == 5,
            "three tries of the push's first request, two of the clone's (\(remote.proxy.summary))")
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj")) == before)
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj"])
        #expect(try remote.store().list(prefix: "").isEmpty)
    }

    /// A 500 to the GET of the root's declaration, or of its layout, on each try: the
    /// service's failure, exit 69, never "not an OCFL 1.1 storage root" (73).
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases, ["0=ocfl_1.1", "ocfl_layout.json"])
    func aServerErrorOnTheRootsFilesIsNotTakenForAnotherFormat(_ service: S3Service, _ file: String) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(service, rate: 1, faults: [.internalError], in: directory, onlyGetOf: file)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        // Pushed past the proxy, straight to the server.
        let pushed = try Run.docctl(
            ["push", "garden.dkproj", remote.address], in: directory.url, environment: remote.server.environment)
        #expect(pushed.status == 0, "\(pushed.standardError)")
        for arguments in [
            ["clone", remote.address, "-o", "copy.dkproj"], ["push", "garden.dkproj", remote.address],
            ["pull", "garden.dkproj", remote.address]
        ] {
            let result = try remote.docctl(arguments + ["--retries", "1"])
            let todo = ["clone": "run clone again", "push": "run push again to resume", "pull": "run pull again"][
                arguments[0]]!
            #expect(
                result.status == 69
                    && result.standardError == """
                        error: \(remote.address): GetObject \(file): HTTP 500 InternalError: We encountered an internal error. Please try again. (request fault-proxy; gave up after 1 retry); \(todo)

                        """,
                "\(arguments): \(result.standardError)")
        }
        #expect(remote.proxy.counts[.internalError] == 6, "\(remote.proxy.summary)")
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj"])
    }

    /// Keys the service refuses: exit 77, with the status and code, the request, and what to check.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func refusedCredentialsEndWithOneLineAndStatus77(_ service: S3Service) throws {
        let directory = try TemporaryDirectory()
        let server = try S3TestServer(service, checkingCredentials: true, bucket: "backups")
        let remote = "s3://\(server.bucket("backups"))/garden"
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let push = try Run.docctl(
            ["push", "garden.dkproj", remote], in: directory.url,
            environment: server.environment.merging(["AWS_SECRET_ACCESS_KEY": "not-the-secret"]) { $1 })
        // radosgw names its request (a new id each time), moto does not.
        let message = push.standardError.replacing(#/ \(request tx[0-9a-z-]+\)/#, with: "")
        #expect(
            push.status == 77
                && message == """
                    error: \(remote): the service refused the credentials (HTTP 403 AccessDenied: Forbidden) on HeadObject 0=ocfl_1.1: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or ~/.aws/credentials) and the keys' permissions on the bucket

                    """,
            "\(push.standardError)")
        #expect(!push.standardError.contains("not-the-secret"))
    }

    /// The retry settings come from `docctl config` when no option gives them, and an
    /// option overrides them.
    @Test(.enabled(if: enabled, skipReason))
    func theRetriesSettingIsUsedUnlessAnOptionGivesThem() throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(.moto, rate: 1, faults: [.internalError], in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let home = ["XDG_CONFIG_HOME": directory.path("config")]
        let set = try Run.docctl(["config", "set", "remote.retries", "1"], in: directory.url, environment: home)
        #expect(set.status == 0, "\(set.standardError)")
        let environment = remote.server.environment.merging(["AWS_ENDPOINT_URL": remote.proxy.endpoint]) { $1 }.merging(
            home
        ) { $1 }
        let configured = try Run.docctl(
            ["push", "garden.dkproj", remote.address], in: directory.url, environment: environment)
        #expect(
            configured.status == 69
                && configured.standardError.contains("(request fault-proxy; gave up after 1 retry)"),
            "\(configured.standardError)")
        let given = try Run.docctl(
            ["push", "garden.dkproj", remote.address, "--retries", "0"], in: directory.url, environment: environment)
        #expect(
            given.status == 69
                && given.standardError == """
                    error: \(remote.address): HeadObject 0=ocfl_1.1: HTTP 500 Internal Server Error (request fault-proxy); run push again to resume

                    """,
            "\(given.standardError)")
        #expect(remote.proxy.counts[.internalError] == 3)
    }

    /// The retries of all of a command's requests together stop at the budget, from
    /// `--retry-budget` or else `remote.retry-budget`, however many one request may make.
    @Test(.enabled(if: enabled, skipReason))
    func theRetryBudgetStopsTheCommandWhateverEachRequestMayRetry() throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(.moto, rate: 1, faults: [.internalError], in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let home = ["XDG_CONFIG_HOME": directory.path("config")]
        let environment = remote.server.environment.merging(["AWS_ENDPOINT_URL": remote.proxy.endpoint]) { $1 }.merging(
            home
        ) { $1 }
        let given = try Run.docctl(
            ["push", "garden.dkproj", remote.address, "--retries", "8", "--retry-budget", "2"], in: directory.url,
            environment: environment)
        #expect(
            given.status == 69
                && given.standardError == """
                    error: \(remote.address): HeadObject 0=ocfl_1.1: HTTP 500 Internal Server Error (request fault-proxy; gave up after 2 retries); run push again to resume

                    """,
            "\(given.standardError)")
        #expect(remote.proxy.counts[.internalError] == 3)
        let set = try Run.docctl(["config", "set", "remote.retry-budget", "1"], in: directory.url, environment: home)
        #expect(set.status == 0, "\(set.standardError)")
        let configured = try Run.docctl(
            ["push", "garden.dkproj", remote.address], in: directory.url, environment: environment)
        #expect(
            configured.status == 69
                && configured.standardError.contains("(request fault-proxy; gave up after 1 retry)"),
            "\(configured.standardError)")
        let refused = try Run.docctl(
            ["push", "garden.dkproj", remote.address, "--retry-budget=-1"], in: directory.url, environment: environment)
        #expect(
            refused.status == 64
                && refused.standardError
                    == "error: --retry-budget takes 0 to 10000, not -1 (see 'docctl push --help')\n",
            "\(refused.standardError)")
        #expect(remote.proxy.counts[.internalError] == 5)
    }
}
