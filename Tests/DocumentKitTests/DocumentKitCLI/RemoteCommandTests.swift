import DocumentKitS3
import Foundation
import Testing

@testable import DocumentKit

/// `docctl push`, `clone` and `pull` on remotes: a folder, and a bucket of each real
/// S3-compatible server on 127.0.0.1 (moto and radosgw, which the code does not know they
/// are). Each test runs on every kind, through docctl as a user runs it (docctl hands s3://
/// to docctl-s3).
@Suite struct RemoteCommandTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case folder, moto, radosgw
        var testDescription: String { rawValue }

        init(_ service: S3Service) {
            switch service {
            case .moto: self = .moto
            case .radosgw: self = .radosgw
            }
        }

        /// The S3 server of the remote; `nil` for a folder.
        var service: S3Service? {
            switch self {
            case .folder: nil
            case .moto: .moto
            case .radosgw: .radosgw
            }
        }
    }

    /// A remote for one test: a folder in the test's directory, or a bucket of its own on a server.
    final class Remote {
        let kind: Kind
        let server: S3TestServer?
        /// The bucket, on a server.
        let bucket: String
        /// As docctl is given it.
        let address: String
        let directory: TemporaryDirectory

        init(_ kind: Kind, in directory: TemporaryDirectory) throws {
            self.kind = kind
            self.directory = directory
            if let service = kind.service {
                let server = try S3TestServer(service, checkingCredentials: true, bucket: "backups")
                self.server = server
                bucket = server.bucket("backups")
                address = "s3://\(bucket)/team/garden"
            } else {
                server = nil
                bucket = ""
                address = directory.path("remote")
            }
        }

        /// The environment docctl reaches the remote with. (The place for a proxy in front
        /// of the server, such as the fault-injecting one of issue 24: docctl is given its
        /// endpoint, and ``store()`` still reaches the server itself.)
        var environment: [String: String] { server?.environment ?? [:] }

        /// The remote's store, as this process opens it, to look at or tamper with it.
        func store() throws -> any RemoteStore {
            guard let server else { return FolderRemoteStore(root: URL(fileURLWithPath: address)) }
            return S3RemoteStore(
                bucket: bucket, prefix: "team/garden", endpoint: server.endpoint, region: "us-east-1",
                credentials: S3Credentials(
                    accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret))
        }

        @discardableResult
        func docctl(
            _ arguments: [String], environment: [String: String] = [:],
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> ExternalTool.Result {
            try Run.docctl(arguments, in: directory.url, environment: self.environment.merging(environment) { $1 })
        }

        /// Runs docctl and expects it to succeed.
        @discardableResult
        func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
            -> ExternalTool.Result
        {
            let result = try docctl(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
            return result
        }
    }

    static let enabled = S3TestServer.isAvailable
    static let skipReason: Comment = "needs moto_server for the S3 remote: run scripts/setup.sh"

    private func ids(_ bundle: String, in directory: TemporaryDirectory) throws -> [VersionID] {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(bundle)).manifest.versions.map(\.id)
    }

    private func head(_ bundle: String, in directory: TemporaryDirectory) throws -> VersionID {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(bundle)).manifest.head
    }

    /// A bundle of `blobs` attachments of 64 KiB and one of `bigMiB` MiB, made by the
    /// benchmarks' corpus script and `docctl import`.
    private func corpusBundle(_ name: String, blobs: Int, bigMiB: Int, in directory: TemporaryDirectory) throws {
        let script = Fixtures.repository.appendingPathComponent("bench/make_corpus.py").path
        let made = try ExternalTool.python3.run([
            script, directory.path("\(name)-source"), "--big-mib", "\(bigMiB)", "--blobs", "\(blobs)", "--tasks", "40"
        ])
        #expect(made.status == 0, "\(made.standardError)")
        let imported = try Run.docctl(["import", "\(name)-source", "-o", name], in: directory.url)
        #expect(imported.status == 0, "\(imported.standardError)")
    }

    /// How many files of a first push's version have arrived: in the object's `v1/content`
    /// on S3, staged outside the object on a folder.
    private func uploaded(to store: any RemoteStore) -> Int {
        ((try? store.list(prefix: "").keys.filter { $0.contains("/v1/content/") }.count) ?? 0)
    }

    private func objectPath(of bundle: String, in directory: TemporaryDirectory) throws -> String {
        OCFLStorageRoot.objectPath(
            for: OCFLDeposit.objectID(
                of: try DocumentBundle(contentsOf: directory.url.appendingPathComponent(bundle)).manifest))
    }

    // MARK: Round trips

    @Test(.enabled(if: enabled, skipReason), arguments: Kind.allCases)
    func pushThenCloneGivesEveryVersionBack(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let count = try ids("garden.dkproj", in: directory).count

        let pushed = try remote.succeed(["push", "garden.dkproj", remote.address])
        #expect(pushed.output.hasPrefix("pushed garden.dkproj to \(remote.address): \(count) new versions in v1, "))
        let again = try remote.succeed(["push", "garden.dkproj", remote.address])
        let head = try head("garden.dkproj", in: directory)
        #expect(
            again.output
                == "\(remote.address) is up to date with garden.dkproj (\(count) versions, head \(head.prefix(12)))\n")
        let json =
            try JSONSerialization.jsonObject(
                with: remote.succeed(["push", "garden.dkproj", remote.address, "--json"]).standardOutput)
            as? [String: Any]
        #expect(
            json?.keys.sorted() == [
                "bundle", "bytesSent", "filesResumed", "filesSent", "head", "newVersionIDs", "newVersions", "objectID",
                "objectPath", "remote", "result", "retries", "totalVersions"
            ])
        #expect(json?["retries"] as? Int == 0, "a perfect link: nothing tried again")
        #expect(
            json?["result"] as? String == "up-to-date" && json?["remote"] as? String == remote.address
                && json?["head"] as? String == head)

        let cloned = try remote.succeed(["clone", remote.address, "-o", "copy.dkproj"])
        #expect(
            cloned.output == "cloned \(remote.address) into copy.dkproj: \(count) versions, head \(head.prefix(12))\n")
        #expect(try ids("copy.dkproj", in: directory) == ids("garden.dkproj", in: directory))
        let original = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("garden.dkproj"))
        let copy = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("copy.dkproj"))
        for version in try original.manifest.versions {
            #expect(try copy.documentData(of: version) == original.documentData(of: version))
        }
        try remote.succeed(["validate", "--deep", "copy.dkproj"])
        // A folder remote is an OCFL storage root that ocfl-py finds valid.
        if kind == .folder {
            try #require(OCFLDepositTests.validatorAvailable, OCFLDepositTests.skipReason)
            let script = Fixtures.repository.appendingPathComponent("Tests/OCFLValidator/ocfl_validate_0004.py").path
            let validated = try OCFLDepositTests.python.run([script, remote.address])
            #expect(
                validated.status == 0
                    && validated.output.split(separator: "\n").last?.contains("is VALID (1 of 1 objects valid)")
                        == true,
                "\(validated.output)")
            #expect(!validated.output.contains("[E"), "\(validated.output)")
        }
        // Credentials are never written into what a clone makes.
        if let server = remote.server {
            let bytes = try Data(contentsOf: directory.url.appendingPathComponent("copy.dkproj"))
            #expect(bytes.range(of: Data(server.credentials.secret.utf8)) == nil)
        }
    }

    @Test(.enabled(if: enabled, skipReason), arguments: Kind.allCases)
    func aSecondPushSendsOnlyTheChangedFiles(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        try corpusBundle("big.dkproj", blobs: 40, bigMiB: 9, in: directory)
        let first = try JSONDecoder().decode(
            RemotePusher.Result.self,
            from: remote.succeed(["push", "big.dkproj", remote.address, "--json"]).standardOutput)
        // The bundle's entries but document.json: mimetype, manifest, one segment, and the
        // objects stored alone (the 9 MiB file, and blobs of 64 KiB or more).
        let created = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("big.dkproj"))
        let alone = try #require(created.history).aloneObjectEntryNames().count
        #expect(first.result == .created && first.filesSent == 3 + alone && first.filesResumed == 0, "\(first)")

        try remote.succeed(["set", "big.dkproj", "name", "Renamed"])
        let second = try JSONDecoder().decode(
            RemotePusher.Result.self,
            from: remote.succeed(["push", "big.dkproj", remote.address, "--json"]).standardOutput)
        // A segment holding the version's items, and the new manifest.json; not one blob.
        #expect(second.result == .pushed && second.newVersions == ["v2"] && second.filesSent == 2)
        #expect(second.bytesSent < 64 << 10, "\(second.bytesSent) bytes")
    }

    // MARK: Races and interruptions

    @Test(.enabled(if: enabled, skipReason), arguments: Kind.allCases)
    func ofTwoRacingPushersOneWinsAndTheOtherPullsAndPushes(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        try corpusBundle("a.dkproj", blobs: 30, bigMiB: 0, in: directory)
        try remote.succeed(["push", "a.dkproj", remote.address])
        try FileManager.default.copyItem(atPath: directory.path("a.dkproj"), toPath: directory.path("b.dkproj"))
        try remote.succeed(["set", "a.dkproj", "name", "Renamed by A"])
        try remote.succeed(["set", "b.dkproj", "tasks[0].title", "Retitled by B"])

        let pushers = try ["a.dkproj", "b.dkproj"].map {
            try DocctlProcess(["push", $0, remote.address], in: directory.url, environment: remote.environment)
        }
        let outcomes = pushers.map { $0.wait() }
        #expect(outcomes.map(\.status).sorted() == [0, 75], "\(outcomes.map(\.standardError))")
        let loser = outcomes[0].status == 0 ? "b.dkproj" : "a.dkproj"
        let message = try #require(outcomes.first { $0.status == 75 }?.standardError)
        #expect(
            message.hasPrefix("error: \(loser): \(remote.address) ") && message.contains("pull")
                && message.split(separator: "\n").count == 1)

        try remote.succeed(["pull", loser, remote.address])
        try remote.succeed(["push", loser, remote.address])
        try remote.succeed(["clone", remote.address, "-o", "all.dkproj"])
        let all = Set(try ids("all.dkproj", in: directory))
        let (a, b) = (try ids("a.dkproj", in: directory), try ids("b.dkproj", in: directory))
        #expect(all.isSuperset(of: a) && all.isSuperset(of: b))
        try remote.succeed(["validate", "--deep", "all.dkproj"])
        // What the loser had uploaded is gone: each version folder holds what the inventory names.
        let store = try remote.store()
        let objectPath = try objectPath(of: "a.dkproj", in: directory)
        let inventory = try JSONDecoder().decode(
            OCFLInventory.self, from: store.readFile("\(objectPath)/inventory.json"))
        let named = Set(inventory.manifest.values.joined().map { "\(objectPath)/\($0)" })
        let content = try store.list(prefix: "\(objectPath)/").keys.filter { $0.contains("/content/") }
        #expect(Set(content) == named)
    }

    @Test(.enabled(if: enabled, skipReason), arguments: Kind.allCases)
    func aPushOvertakenBeforeItsCompareAndSwapLosesAndTakesBackOnlyItsOwnFiles(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        try corpusBundle("a.dkproj", blobs: 300, bigMiB: 0, in: directory)
        try FileManager.default.copyItem(atPath: directory.path("a.dkproj"), toPath: directory.path("b.dkproj"))
        try remote.succeed(["set", "b.dkproj", "name", "Renamed by B"])
        let store = try remote.store()

        // A is stopped once its first files are up, B pushes the same first version and one
        // more meanwhile, then A goes on: its compare-and-swap must lose. A sends one file
        // at a time, so that it is still sending when the listing first shows five.
        let pusherA = try DocctlProcess(
            ["push", "a.dkproj", remote.address, "--jobs", "1"], in: directory.url, environment: remote.environment)
        while pusherA.isRunning, uploaded(to: store) < 5 { usleep(1_000) }
        pusherA.send(SIGSTOP)
        pusherA.waitUntilStopped()
        let pushedB = try remote.docctl(["push", "b.dkproj", remote.address])
        pusherA.send(SIGCONT)
        let outcomeA = pusherA.wait()
        #expect(pushedB.status == 0, "\(pushedB.standardError)")
        #expect(
            outcomeA.status == 75
                && outcomeA.standardError
                    == """
                    error: a.dkproj: \(remote.address) changed while this push ran (another push moved its head \
                    first); nothing was pushed (pull first: 'docctl pull a.dkproj \(remote.address)', then push \
                    again)\n
                    """,
            "\(outcomeA.standardError)")
        // B's files, which A had also sent (the same first version), are still there.
        try remote.succeed(["clone", remote.address, "-o", "copy.dkproj"])
        try remote.succeed(["validate", "--deep", "copy.dkproj"])
        #expect(try ids("copy.dkproj", in: directory) == ids("b.dkproj", in: directory))
    }

    @Test(.enabled(if: enabled, skipReason), arguments: Kind.allCases)
    func aKilledPushResumesWithoutSendingAgainWhatArrived(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        // A folder takes 400 files in a few tenths of a second, which a busy machine's
        // looks at the remote can miss whole: three times as many there.
        try corpusBundle("big.dkproj", blobs: kind == .folder ? 1_200 : 400, bigMiB: 0, in: directory)
        let store = try remote.store()
        let objectPath = try objectPath(of: "big.dkproj", in: directory)
        // Side by side, a push of 400 small files to a folder or to radosgw can end between
        // two looks at the remote: one at a time, it is still under way when 10 have
        // arrived. (Pushes to moto go side by side; RemoteInterruptionTests kills pushes
        // side by side after each of their writes.)
        let jobs = kind == .moto ? [] : ["--jobs", "1"]
        let push = try DocctlProcess(
            ["push", "big.dkproj", remote.address] + jobs, in: directory.url, environment: remote.environment)
        var arrived = 0
        while push.isRunning {
            arrived = uploaded(to: store)
            if arrived >= 10 {
                push.send(SIGKILL)
                break
            }
            usleep(2_000)
        }
        let killed = push.wait()
        try #require(killed.signaled, "the push ended before it could be killed: \(killed.standardError)")
        // Killed before its compare-and-swap: the remote has no head yet.
        #expect(try store.size("\(objectPath)/inventory.json") == nil)

        let resumed = try JSONDecoder().decode(
            RemotePusher.Result.self,
            from: remote.succeed(["push", "big.dkproj", remote.address, "--json"]).standardOutput)
        let inventory = try JSONDecoder().decode(
            OCFLInventory.self, from: store.readFile("\(objectPath)/inventory.json"))
        #expect(
            resumed.filesResumed >= 10 && resumed.filesSent + resumed.filesResumed == inventory.manifest.count,
            "\(resumed)")
        try remote.succeed(["clone", remote.address, "-o", "copy.dkproj"])
        #expect(try ids("copy.dkproj", in: directory) == ids("big.dkproj", in: directory))
    }

    // MARK: Hostile remotes

    @Test(.enabled(if: enabled, skipReason), arguments: Kind.allCases)
    func aRemoteWhoseBytesDoNotMatchTheirDigestsIsRefused(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try remote.succeed(["push", "garden.dkproj", remote.address])
        // A version garden.dkproj lacks, whose document a pull must fetch.
        try remote.succeed(["clone", remote.address, "-o", "other.dkproj"])
        try remote.succeed(["set", "other.dkproj", "name", "Renamed elsewhere"])
        try remote.succeed(["push", "other.dkproj", remote.address])
        try FileManager.default.removeItem(atPath: directory.path("other.dkproj"))
        let store = try remote.store()
        let objectPath = try objectPath(of: "garden.dkproj", in: directory)
        // The segment of the second push, which a pull must fetch.
        let key = try #require(
            try store.list(prefix: "\(objectPath)/v2/content/").keys.first { $0.contains("/history/") })
        var bytes = try store.readFile(key)
        bytes[bytes.count / 2] ^= 0x20
        try store.write(key, bytes)

        expectFailure(
            try remote.docctl(["clone", remote.address, "-o", "copy.dkproj"]), status: 65,
            containing: "is damaged: its SHA-512 is not the inventory's")
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.dkproj")))
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj"))
        expectFailure(
            try remote.docctl(["pull", "garden.dkproj", remote.address]), status: 65, containing: "is damaged")
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj")) == before)
        #expect(Fixtures.listing(directory.url).filter { $0.hasPrefix(".") } == [])
    }

    @Test(.enabled(if: enabled, skipReason), arguments: Kind.allCases)
    func aHeadNamingAVersionTheRemoteLacksIsRefused(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try remote.succeed(["push", "garden.dkproj", remote.address])
        let store = try remote.store()
        let objectPath = try objectPath(of: "garden.dkproj", in: directory)
        var inventory = try JSONDecoder().decode(
            OCFLInventory.self, from: store.readFile("\(objectPath)/inventory.json"))
        inventory.head = "v\(inventory.versions.count + 1)"
        let data = try inventory.encoded()
        try store.write("\(objectPath)/inventory.json", data)
        try store.write("\(objectPath)/inventory.json.sha512", OCFLInventory.sidecar(for: data))

        expectFailure(
            try remote.docctl(["clone", remote.address, "-o", "copy.dkproj"]), status: 65,
            containing: "not an OCFL 1.1 inventory with sha512 digests and versions v1 to its head")
        #expect(!FileManager.default.fileExists(atPath: directory.path("copy.dkproj")))
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj"))
        expectFailure(
            try remote.docctl(["pull", "garden.dkproj", remote.address]), status: 65,
            containing: "versions v1 to its head")
        expectFailure(
            try remote.docctl(["push", "garden.dkproj", remote.address]), status: 65,
            containing: "versions v1 to its head")
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj")) == before)
    }

    /// Two people exchanging one project type the remote once: `clone REMOTE` names the
    /// bundle after the project and remembers the remote, and push and pull without one use
    /// the bundle's `remote.default` (which the one who pushed first sets with `state set`); a
    /// remembered folder that is not there is refused, not made.
    @Test(.enabled(if: enabled, skipReason), arguments: Kind.allCases)
    func cloneNamesTheBundleAfterTheProjectAndPushAndPullRememberTheRemote(_ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(kind, in: directory)
        try remote.succeed(["new", "g.dkproj", "--name", "Garden: north/south"])
        expectFailure(
            try remote.docctl(["push", "g.dkproj"]), status: 64,
            containing:
                """
                error: g.dkproj: no remote given, and none remembered for it: name one, or remember one with \
                'docctl state set g.dkproj remote.default REMOTE'
                """
        )
        // A remembered folder that is not there (the state travels with a packed bundle, from
        // another machine) is refused, not made.
        try remote.succeed(["state", "set", "g.dkproj", "remote.default", directory.path("elsewhere")])
        expectFailure(
            try remote.docctl(["push", "g.dkproj"]), status: 64,
            containing:
                """
                error: g.dkproj: its remembered remote \(directory.path("elsewhere")) (remote.default) is not a \
                folder here: name the remote, or remember another with 'docctl state set g.dkproj remote.default \
                REMOTE'
                """
        )
        #expect(!FileManager.default.fileExists(atPath: directory.path("elsewhere")))
        #expect(
            try remote.succeed(["push", "g.dkproj", remote.address]).output.hasPrefix(
                "pushed g.dkproj to \(remote.address): 1 new version in v1, "))
        try remote.succeed(["state", "set", "g.dkproj", "remote.default", remote.address])
        #expect(
            try remote.succeed(["push", "g.dkproj"]).output
                == """
                \(remote.address) is up to date with g.dkproj (1 version, head \
                \(try head("g.dkproj", in: directory).prefix(12)))\n
                """
        )

        // Bob clones in a folder of his own, without -o.
        let bob = directory.url.appendingPathComponent("bob")
        try FileManager.default.createDirectory(at: bob, withIntermediateDirectories: false)
        let address = kind == .folder ? "../remote" : remote.address
        let cloned = try Run.docctl(["clone", address], in: bob, environment: remote.environment)
        #expect(cloned.status == 0, "\(cloned.standardError)")
        let head = try head("g.dkproj", in: directory)
        #expect(
            cloned.output == "cloned \(address) into Garden: north-south.dkproj: 1 version, head \(head.prefix(12))\n")
        #expect(Fixtures.listing(bob) == ["Garden: north-south.dkproj"])
        let remembered = try Run.docctl(["state", "get", "Garden: north-south.dkproj", "remote.default"], in: bob)
        #expect(
            remembered.output
                == (kind == .folder
                    ? directory.url.appendingPathComponent("remote").standardizedFileURL.path : remote.address) + "\n")
        let again = try Run.docctl(["clone", address], in: bob, environment: remote.environment)
        expectFailure(again, status: 73, containing: "error: ")
        #expect(
            again.standardError.contains("Garden: north-south.dkproj: already exists (use --force to replace it)"),
            "\(again.standardError)")

        // Bob edits and pushes without naming the remote; Alice pulls without naming it.
        for arguments in [
            ["set", "Garden: north-south.dkproj", "summary", "Beds", "-m", "Beds"],
            ["push", "Garden: north-south.dkproj"]
        ] {
            let result = try Run.docctl(arguments, in: bob, environment: remote.environment)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        let pulled = try remote.succeed(["pull", "g.dkproj"])
        #expect(pulled.output.hasPrefix("fast-forward g.dkproj to version 2 "), "\(pulled.output)")
        #expect(try remote.succeed(["get", "g.dkproj", "summary"]).output == "Beds\n")
    }

    @Test func aFolderThatIsNotARemoteIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try FileManager.default.createDirectory(atPath: directory.path("photos"), withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: directory.url.appendingPathComponent("photos/cat.jpg"))
        expectFailure(
            try Run.docctl(["push", "garden.dkproj", "photos"], in: directory.url), status: 73,
            containing:
                "error: photos: not a DocumentKit remote (an OCFL 1.1 storage root) and not empty: it holds cat.jpg")
        #expect(Fixtures.listing(directory.url.appendingPathComponent("photos")) == ["cat.jpg"])
        expectFailure(
            try Run.docctl(["clone", "photos", "-o", "copy.dkproj"], in: directory.url), status: 66,
            containing: "error: photos: not a DocumentKit remote: no OCFL storage root (0=ocfl_1.1)")
    }

    // MARK: S3 failures

    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func wrongCredentialsAMissingBucketAndAnUnreachableEndpointAreOneLineEach(_ service: S3Service) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(Kind(service), in: directory)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj"))

        let wrongSecret = try remote.docctl(
            ["push", "garden.dkproj", remote.address], environment: ["AWS_SECRET_ACCESS_KEY": "not-the-secret"])
        expectFailure(
            wrongSecret, status: 77, containing: "error: \(remote.address): the service refused the credentials (")
        #expect(!wrongSecret.standardError.contains("not-the-secret"))
        expectFailure(
            try remote.docctl(
                ["clone", remote.address, "-o", "copy.dkproj"], environment: ["AWS_ACCESS_KEY_ID": "AKIANOSUCHKEY"]),
            status: 77, containing: "the service refused the credentials")
        expectFailure(
            try remote.docctl(["push", "garden.dkproj", "s3://no-such-bucket/x"]), status: 66,
            containing: "error: s3://no-such-bucket/x: no such bucket")
        expectFailure(
            try remote.docctl(["clone", "s3://no-such-bucket/x", "-o", "copy.dkproj"]), status: 66,
            containing: "no such bucket")
        let start = Date()
        expectFailure(
            try remote.docctl(["push", "garden.dkproj", remote.address, "--endpoint", "http://127.0.0.1:9"]),
            status: 69,
            containing: "error: \(remote.address): cannot reach http://127.0.0.1:9: Connection refused")
        #expect(Date().timeIntervalSince(start) < 10)
        expectFailure(
            try remote.docctl(
                ["clone", remote.address, "-o", "copy.dkproj"],
                environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SHARED_CREDENTIALS_FILE": directory.path("none")]),
            status: 66, containing: "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")

        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj")) == before)
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj"])
        // Nothing reached the bucket either.
        #expect(try remote.store().list(prefix: "").isEmpty)
    }
    /// A push whose connection breaks, each time it is tried, says so in plain words, with
    /// the request and the retries made, and that running it again resumes; nothing is
    /// written to the bundle.
    @Test func aBrokenConnectionIsOneLineInPlainWordsAndPushSaysItResumes() throws {
        let directory = try TemporaryDirectory()
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj"))
        let closing = try FaultyServer(.closing)
        let keys = ["AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1"]
        let push = try Run.docctl(
            ["push", "garden.dkproj", "s3://backups/garden", "--endpoint", closing.endpoint, "--retries", "1"],
            in: directory.url, environment: keys)
        expectFailure(
            push, status: 69,
            containing:
                """
                error: s3://backups/garden: HeadObject 0=ocfl_1.1: \(closing.endpoint) closed the connection \
                before it answered (gave up after 1 retry); run push again to resume\n
                """
        )
        let clone = try Run.docctl(
            ["clone", "s3://backups/garden", "-o", "copy.dkproj", "--endpoint", closing.endpoint, "--retries", "1"],
            in: directory.url, environment: keys)
        expectFailure(
            clone, status: 69,
            containing:
                """
                error: s3://backups/garden: HeadObject 0=ocfl_1.1: \(closing.endpoint) closed the connection \
                before it answered (gave up after 1 retry); run clone again\n
                """
        )
        #expect(!clone.standardError.contains("resume"))
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("garden.dkproj")) == before)
        #expect(Fixtures.listing(directory.url) == ["garden.dkproj"])
    }

    /// Two users on one machine are two homes (`HOME=$PWD/bob`): the S3 keys, region and
    /// endpoint come from `$HOME/.aws`, as the AWS tools and docctl's own settings take them.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func s3SettingsComeFromTheHomeFolderOfHOME(_ service: S3Service) throws {
        let directory = try TemporaryDirectory()
        let remote = try Remote(Kind(service), in: directory)
        let server = try #require(remote.server)
        _ = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let bob = directory.url.appendingPathComponent("bob")
        try FileManager.default.createDirectory(
            at: bob.appendingPathComponent(".aws"), withIntermediateDirectories: true)
        // Set and empty counts as unset, so only bob's files can supply the settings.
        let unset = [
            "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_S3": "",
            "AWS_REGION": "",
            "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "", "AWS_CONFIG_FILE": "", "AWS_SHARED_CREDENTIALS_FILE": "",
            "HOME": bob.path
        ]

        expectFailure(
            try remote.docctl(["clone", remote.address, "-o", "copy.dkproj"], environment: unset), status: 66,
            containing:
                """
                no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or write them in \
                \(bob.path)/.aws/credentials
                """
        )

        try Data(
            """
            [default]\naws_access_key_id = \(server.credentials.id)\naws_secret_access_key = \
            \(server.credentials.secret)\n
            """
            .utf8
        )
        .write(to: bob.appendingPathComponent(".aws/credentials"))
        try Data("[default]\nregion = us-east-1\nendpoint_url = \(server.endpoint.absoluteString)\n".utf8).write(
            to: bob.appendingPathComponent(".aws/config"))
        let pushed = try remote.docctl(["push", "garden.dkproj", remote.address], environment: unset)
        #expect(pushed.status == 0, "\(pushed.standardError)")
        let cloned = try remote.docctl(["clone", remote.address, "-o", "copy.dkproj"], environment: unset)
        #expect(cloned.status == 0, "\(cloned.standardError)")
        #expect(try ids("copy.dkproj", in: directory) == ids("garden.dkproj", in: directory))
    }

    // MARK: Help

    @Test func pushAndClonesHelpArePrintedExactly() throws {
        let push = try Run.docctl(["push", "--help"], environment: ["COLUMNS": "80"])
        #expect(push.status == 0)
        #expect(
            push.output == """
                OVERVIEW: Send a bundle's versions to a remote: a folder or s3://bucket/prefix.

                The remote is an OCFL 1.1 storage root (FORMAT.md, section 11), made when it is
                empty: the project is one object and each push one OCFL version holding its
                history, so a backup is also an archive. Only files the remote lacks are sent,
                each once; a push that was interrupted sends again only what had not arrived.
                The remote's head moves last, in one compare-and-swap: when another push moved
                it first, or the remote holds versions this bundle lacks, nothing is pushed
                (exit status 75): pull from the remote, then push again. S3 credentials come
                from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or ~/.aws/credentials
                (AWS_PROFILE), and are never printed.

                USAGE: docctl push <bundle> [<remote>] [--new-project] [--endpoint <URL>] [--timeout <SECONDS>] [--retries <N>] [--retry-budget <N>] [--jobs <N>] [--dry-run] [--json] [--quiet]

                ARGUMENTS:
                  <bundle>                The bundle (.dkproj) to work on.
                  <remote>                The remote: a folder, or s3://BUCKET/PREFIX (default:
                                          the bundle's remote.default, which clone sets).

                OPTIONS:
                  --new-project           Add the project to a remote that holds another
                                          project (a clone then needs --object).
                \(HelpText.remoteOptions)
                  --dry-run               Report what would be written, and write nothing.
                  --json                  Print machine-readable JSON instead of text.
                  -q, --quiet             Print nothing but errors, and no progress: the exit
                                          status tells.
                  -h, --help              Show help information.


                """)
        let clone = try Run.docctl(["clone", "--help"], environment: ["COLUMNS": "80"])
        #expect(clone.status == 0)
        #expect(
            clone.output == """
                OVERVIEW: Make a new bundle from a project on a remote.

                Every version on the remote comes with its id, document and blobs; each file is
                checked against the remote's digests first, and nothing is written if one does
                not match. A remote that holds several projects needs --object, the project's
                OCFL object id (documentkit: and the id of its first version). Without --output
                the new bundle is named after the project (Garden.dkproj), in the current
                folder. The new bundle remembers the remote (remote.default in 'docctl state'):
                push and pull without a remote use it.

                USAGE: docctl clone <remote> [--output <BUNDLE>] [--object <ID>] [--force] [--endpoint <URL>] [--timeout <SECONDS>] [--retries <N>] [--retry-budget <N>] [--jobs <N>] [--dry-run] [--json] [--quiet]

                ARGUMENTS:
                  <remote>                The remote: a folder, or s3://BUCKET/PREFIX.

                OPTIONS:
                  -o, --output <BUNDLE>   The new bundle (default: the project's name, as
                                          NAME.dkproj).
                  --object <ID>           The project to clone, by OCFL object id, when the
                                          remote holds several.
                  --force                 Replace the output if it exists.
                \(HelpText.remoteOptions)
                  --dry-run               Report what would be written, and write nothing.
                  --json                  Print machine-readable JSON instead of text.
                  -q, --quiet             Print nothing but errors, and no progress: the exit
                                          status tells.
                  -h, --help              Show help information.


                """)
    }
}
