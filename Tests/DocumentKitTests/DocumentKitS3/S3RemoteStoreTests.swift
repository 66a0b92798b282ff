import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitS3

/// The S3 remote store on each real S3-compatible server (moto, radosgw): large files in
/// parts, an interrupted upload resumed without sending again the parts that arrived, and
/// the compare-and-swap a push ends with.
@Suite struct S3RemoteStoreTests {
    /// A store on `server`'s bucket `parts-…`, below prefix `p`.
    private func store(on server: S3TestServer) -> S3RemoteStore {
        S3RemoteStore(
            bucket: server.bucket("parts"), prefix: "p", endpoint: server.endpoint, region: "us-east-1",
            credentials: S3Credentials(accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret))
    }

    @Test(
        .enabled(if: S3TestServer.isAvailable, "needs moto_server: run scripts/setup.sh"), arguments: S3Service.allCases
    )
    func anInterruptedMultipartUploadSendsOnlyTheMissingParts(_ service: S3Service) async throws {
        let server = try S3TestServer(service, bucket: "parts")
        let store = self.store(on: server)
        store.partSize = 5 << 20
        let data = Fixtures.noise(12 << 20)

        // An upload that got as far as its first part, as a killed push leaves it.
        let client = store.client
        let id = try await client.startMultipartUpload(bucket: store.bucket, key: "p/blob")
        _ = try await client.uploadPart(
            data.prefix(5 << 20), number: 1, uploadID: id, bucket: store.bucket, key: "p/blob")

        let sent = try store.upload("blob", from: FileWrapper(regularFileWithContents: data), size: UInt64(data.count))
        #expect(sent == UInt64(data.count - (5 << 20)))
        #expect(try store.read("blob")?.data == data)
        #expect(try await client.unfinishedUploads(bucket: store.bucket, key: "p/blob").isEmpty)

        // Read back in a stream, to a file.
        let directory = try TemporaryDirectory()
        try store.download("blob", to: directory.url.appendingPathComponent("copy"))
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("copy")) == data)
    }

    /// The bytes `body` reports in the phase it runs in, as a push's sending phase counts
    /// them (the bundle's bytes read for sending), in order.
    private func sendingReports(total: Int, _ body: () throws -> Void) rethrows -> [UInt64] {
        let collected = Protected<[UInt64]>([])
        try WorkProgress.reporting(to: { report in collected.mutate { $0.append(report.completedBytes) } }) {
            try ProgressMeter.phase(.writing, counting: .read, totalBytes: UInt64(total), body)
        }
        return collected.value
    }

    /// Progress counts what the service has taken: each part once its request is answered,
    /// a small file once its PUT is; a request that fails counted nothing (issue 23: a push
    /// sat at 98% while its last part was on the way, for it counted bytes as it read them).
    @Test(
        .enabled(if: S3TestServer.isAvailable, "needs moto_server: run scripts/setup.sh"), arguments: S3Service.allCases
    )
    func progressCountsWhatTheServiceHasTaken(_ service: S3Service) throws {
        let server = try S3TestServer(service, bucket: "parts")
        let credentials = S3Credentials(accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret)
        let store = self.store(on: server)
        store.partSize = 5 << 20
        let big = Fixtures.noise(12 << 20)
        let parts = try sendingReports(total: big.count) {
            _ = try store.upload("big", from: FileWrapper(regularFileWithContents: big), size: UInt64(big.count))
        }
        // Parts go side by side, and are counted in the order they are taken.
        let steps = zip(parts.dropFirst(), parts.dropFirst(2)).map { $1 - $0 }
        #expect(
            parts.count == 5 && parts.first == 0 && parts.suffix(2) == [12 << 20, 12 << 20],
            "a report as each part is taken, then the phase's end: \(parts)")
        #expect(
            ([parts[1]] + steps.dropLast()).sorted() == [2 << 20, 5 << 20, 5 << 20], "each part counted once: \(parts)")

        let small = Fixtures.noise(1 << 20)
        let closing = try FaultyServer(.closing)
        let unanswered = S3RemoteStore(
            bucket: "parts", prefix: "p", endpoint: URL(string: closing.endpoint)!, region: "us-east-1",
            credentials: credentials, retryPolicy: S3RetryPolicy(maxRetries: 1))
        let failed = sendingReports(total: small.count) {
            #expect(throws: DocumentKitError.self) {
                try unanswered.upload(
                    "small", from: FileWrapper(regularFileWithContents: small), size: UInt64(small.count))
            }
        }
        #expect(failed == [0, 1 << 20], "nothing counted before the phase's end")
        let taken = try sendingReports(total: small.count) {
            _ = try store.upload("small", from: FileWrapper(regularFileWithContents: small), size: UInt64(small.count))
        }
        #expect(taken == [0, 1 << 20, 1 << 20])
    }

    /// Of writers racing to replace one version of a file, exactly one wins and the others
    /// are told they lost; none fails. (radosgw may answer a loser 500 rather than 412: the
    /// store settles that by reading the file back.)
    @Test(
        .enabled(if: S3TestServer.isAvailable, "needs moto_server: run scripts/setup.sh"), arguments: S3Service.allCases
    )
    func ofWritersRacingToReplaceOneVersionExactlyOneWins(_ service: S3Service) throws {
        let server = try S3TestServer(service, bucket: "parts")
        try store(on: server).write("head", Data("v1".utf8))
        let tag = try #require(try store(on: server).read("head")?.tag)
        for round in 1...3 {
            let writers = 8
            let outcomes = Protected<[Int: Result<Bool, any Error>]>([:])
            let done = DispatchGroup()
            // Threads of their own: each writer waits for its request, as a push does.
            for writer in 0..<writers {
                let store = self.store(on: server)
                done.enter()
                Thread {
                    let outcome = Result {
                        try store.replace("head", with: Data("round \(round), writer \(writer)".utf8), ifTag: tag)
                    }
                    outcomes.mutate { $0[writer] = outcome }
                    done.leave()
                }.start()
            }
            done.wait()
            let won = try outcomes.value.filter { try $0.value.get() }.map(\.key)
            #expect(won.count == (round == 1 ? 1 : 0), "round \(round): \(outcomes.value)")
            if let winner = won.first {
                #expect(try store(on: server).read("head")?.data == Data("round 1, writer \(winner)".utf8))
            }
        }
    }
}
