import Foundation
import NIOCore
import Testing

@testable import DocumentKitS3

/// The S3 client on a link that fails: answers cut short or stalled are tried again and
/// never taken for content, error documents are read whole, and a conditional write whose
/// answer was lost is settled by reading the key back. Against moto and radosgw behind
/// ``FaultProxy``.
@Suite struct S3ClientFaultTests {
    static let enabled = S3TestServer.isAvailable
    static let skipReason: Comment = "needs moto_server: run scripts/setup.sh"
    static let seed: UInt64 = 0x5EED_0024

    /// A client of `proxy` that retries at once (no backoff: no wait to time), with a
    /// deadline of 1 s.
    private func client(_ proxy: FaultProxy, of server: S3TestServer, retries: Int = 10) -> S3Client {
        var client = S3Client(
            endpoint: URL(string: proxy.endpoint)!, region: "us-east-1", credentials: credentials(server))
        client.retryPolicy = S3RetryPolicy(maxRetries: retries, timeout: .seconds(1))
        client.retryPolicy.jitter = { 0 }
        return client
    }

    /// A proxy in front of `server` that faults as asked, with this suite's seed.
    private func faultProxy(
        _ server: S3TestServer, rate: Double, faults: [FaultProxy.Fault], stallSeconds: Double = 3, limit: Int = .max,
        only: @escaping @Sendable (String) -> Bool = { _ in true }
    ) throws -> FaultProxy {
        try FaultProxy(
            upstreamPort: try #require(server.endpoint.port), seed: Self.seed, rate: rate, faults: faults,
            stallSeconds: stallSeconds,
            limit: limit, only: only)
    }

    /// A client of the server itself, to look at the bucket.
    private func direct(_ server: S3TestServer) -> S3Client {
        S3Client(endpoint: server.endpoint, region: "us-east-1", credentials: credentials(server))
    }

    private func credentials(_ server: S3TestServer) -> S3Credentials {
        S3Credentials(accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret)
    }

    @Test func backoffIsFullJitterUnderACap() {
        var policy = S3RetryPolicy()
        policy.jitter = { 0.5 }
        #expect([1, 2, 3, 8, 9, 30].map { policy.delay(beforeRetry: $0) } == [0.05, 0.1, 0.2, 6.4, 10, 10])
        var random = SeededRandom(seed: Self.seed)
        for retry in 1...200 {
            let jitter = Double(random.next() >> 11) / Double(1 << 53)
            policy.jitter = { jitter }
            let number = (retry - 1) % 12 + 1
            let delay = policy.delay(beforeRetry: number)
            #expect(
                delay >= 0 && delay < min(20, 0.1 * pow(2, Double(number - 1))),
                "retry \(number) waits \(delay) s (seed \(Self.seed))")
        }
    }

    @Test func theBudgetRunsOutAndSuccessesRefillIt() {
        let budget = S3RetryBudget()
        #expect((0..<100).allSatisfy { _ in budget.spend(timeout: false) })
        #expect(!budget.spend(timeout: false) && budget.retries == 100)
        for _ in 0..<10 { budget.refund() }
        #expect(budget.spend(timeout: true) && !budget.spend(timeout: false) && budget.retries == 101)
    }

    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func anS3ErrorDocumentIsReadWholeAndRetriesThatRunOutSaySo(_ service: S3Service) async throws {
        let server = try S3TestServer(service, bucket: "faults")
        let bucket = server.bucket("faults")
        let proxy = try faultProxy(server, rate: 1, faults: [.slowDown])
        let error = await #expect(throws: S3Error.self) {
            try await client(proxy, of: server, retries: 2).get(bucket: bucket, key: "k")
        }
        #expect(
            error?.kind == .service(status: 503, code: "SlowDown") && error?.requestID == "fault-proxy"
                && error?.retries == 2)
        #expect(
            error?.description
                == """
                GetObject \(bucket)/k: HTTP 503 SlowDown: Please reduce your request rate. (request fault-proxy; \
                gave up after 2 retries)
                """
        )
        #expect(proxy.counts[.slowDown] == 3, "\(proxy.summary)")
    }

    /// Half the answers cut short, stalled or lost: each read gives the object's bytes, and
    /// the listing every key, exactly.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func answersCutShortOrStalledAreTriedAgainNeverTakenForContent(_ service: S3Service) async throws {
        let server = try S3TestServer(service, bucket: "faults")
        let bucket = server.bucket("faults")
        let objects = (0..<6).map { Fixtures.noise(50_000 + $0, seed: Self.seed + UInt64($0)) }
        for (index, data) in objects.enumerated() {
            try await direct(server).put(data, bucket: bucket, key: "k\(index)")
        }
        let proxy = try faultProxy(
            server, rate: 0.5,
            faults: [.cutShort, .stall, .internalError, .lostAnswer], stallSeconds: 2)
        let s3 = client(proxy, of: server)
        for (index, data) in objects.enumerated() {
            #expect(try await s3.get(bucket: bucket, key: "k\(index)")?.data == data, "k\(index) (\(proxy.summary))")
            #expect(
                try await s3.head(bucket: bucket, key: "k\(index)")?.size == UInt64(data.count),
                "k\(index) (\(proxy.summary))")
        }
        #expect(
            try await s3.list(bucket: bucket, prefix: "k").map(\.key) == (0..<6).map { "k\($0)" }, "\(proxy.summary)")
        #expect(try await s3.head(bucket: bucket, key: "none") == nil, "only a 404 is absence")
        for fault in [FaultProxy.Fault.cutShort, .stall] { #expect((proxy.counts[fault] ?? 0) > 0, "\(proxy.summary)") }
        // One retry per fault at least (a request slowed past its deadline by a loaded machine is one more).
        #expect(s3.budget.retries >= proxy.counts.values.reduce(0, +), "\(proxy.summary)")
    }

    /// An upload's body damaged on the way is sent again: radosgw refuses it by its
    /// Content-MD5 (400 BadDigest), moto stores it and answers the ETag of what it got,
    /// which is not the MD5 sent. Either way the object ends whole, one retry later.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func anUploadDamagedOnTheWayIsSentAgain(_ service: S3Service) async throws {
        let server = try S3TestServer(service, bucket: "faults")
        let bucket = server.bucket("faults")
        let proxy = try faultProxy(server, rate: 1, faults: [.damagedBody], limit: 1, only: { $0.hasPrefix("PUT ") })
        let s3 = client(proxy, of: server)
        let data = Fixtures.noise(100_000, seed: Self.seed)
        try await s3.put(data, bucket: bucket, key: "k")
        #expect(try await direct(server).get(bucket: bucket, key: "k")?.data == data)
        #expect(
            proxy.counts[.damagedBody] == 1 && s3.budget.retries == 1, "\(proxy.summary), \(s3.budget.retries) retries")
    }

    /// A conditional write applied whose answer became a 500: the key holds its bytes, so it
    /// succeeded; a stale one answered 500 (as radosgw answers a lost If-Match race) lost.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func aConditionalWriteWhoseAnswerWasLostIsSettledByReadingBack(_ service: S3Service) async throws {
        let server = try S3TestServer(service, bucket: "faults")
        let bucket = server.bucket("faults")
        let proxy = try faultProxy(
            server, rate: 1, faults: [.lostAnswer],
            only: { $0.hasPrefix("PUT ") })
        let s3 = client(proxy, of: server)
        #expect(
            try await s3.putIfUnchanged(Data("first".utf8), bucket: bucket, key: "head", ifTag: nil),
            "applied, answer lost: won")
        let first = try #require(try await direct(server).get(bucket: bucket, key: "head"))
        #expect(first.data == Data("first".utf8))
        try await direct(server).put(Data("theirs".utf8), bucket: bucket, key: "head")
        #expect(
            try await !s3.putIfUnchanged(Data("mine".utf8), bucket: bucket, key: "head", ifTag: first.etag),
            "another writer's: lost")
        #expect(try await direct(server).get(bucket: bucket, key: "head")?.data == Data("theirs".utf8))
        #expect(proxy.counts[.lostAnswer] == 2, "\(proxy.summary)")
    }

    /// A conditional write the service never applied (a 500 before it) is sent again, the
    /// object being unchanged, until the retries run out; nothing is written.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func aConditionalWriteNeverAppliedIsSentAgainWhileTheObjectIsUnchanged(_ service: S3Service) async throws {
        let server = try S3TestServer(service, bucket: "faults")
        let bucket = server.bucket("faults")
        let proxy = try faultProxy(
            server, rate: 1, faults: [.internalError],
            limit: 2, only: { $0.hasPrefix("PUT ") })
        let s3 = client(proxy, of: server)
        #expect(try await s3.putIfUnchanged(Data("first".utf8), bucket: bucket, key: "head", ifTag: nil))
        #expect(try await direct(server).get(bucket: bucket, key: "head")?.data == Data("first".utf8))
        #expect(proxy.counts[.internalError] == 2 && s3.budget.retries == 2, "\(proxy.summary)")
        // Failing each time, it gives up once its retries ran out, having written nothing.
        let failing = try faultProxy(
            server, rate: 1, faults: [.internalError],
            only: { $0.hasPrefix("PUT ") })
        let error = await #expect(throws: S3Error.self) {
            try await client(failing, of: server, retries: 1).putIfUnchanged(
                Data("second".utf8), bucket: bucket, key: "other", ifTag: nil)
        }
        #expect(
            error?.kind == .service(status: 500, code: "InternalError") && error?.retries == 1
                && error?.operation == "PutObject")
        #expect(try await direct(server).head(bucket: bucket, key: "other") == nil)
        // A 500 where the object is another's (written before): a lost race, not retried.
        #expect(
            try await !client(failing, of: server).putIfUnchanged(
                Data("second".utf8), bucket: bucket, key: "head", ifTag: nil))
        #expect(failing.counts[.internalError] == 3, "\(failing.summary)")
    }

    /// A CompleteMultipartUpload whose answer was lost after the parts were joined: the retry
    /// finds no upload, and the object's ETag, that of these parts, settles it.
    @Test(.enabled(if: enabled, skipReason), arguments: S3Service.allCases)
    func aCompletedUploadWhoseAnswerWasLostIsRecognised(_ service: S3Service) async throws {
        let server = try S3TestServer(service, bucket: "faults")
        let bucket = server.bucket("faults")
        let proxy = try faultProxy(
            server, rate: 1, faults: [.lostAnswer],
            limit: 1, only: { $0.hasPrefix("POST ") && $0.contains("uploadId=") })
        let s3 = client(proxy, of: server)
        let part = 5 << 20
        let data = Fixtures.noise(part + 1000, seed: Self.seed)
        let upload = try await s3.startMultipartUpload(bucket: bucket, key: "big")
        let one = try await s3.uploadPart(data.prefix(part), number: 1, uploadID: upload, bucket: bucket, key: "big")
        let two = try await s3.uploadPart(
            data.suffix(from: part), number: 2, uploadID: upload, bucket: bucket, key: "big")
        try await s3.completeMultipartUpload(uploadID: upload, parts: [1: one, 2: two], bucket: bucket, key: "big")
        #expect(try await direct(server).get(bucket: bucket, key: "big")?.data == data)
        #expect(proxy.counts[.lostAnswer] == 1, "\(proxy.summary)")
    }
}
