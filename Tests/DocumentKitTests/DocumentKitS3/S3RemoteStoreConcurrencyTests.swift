import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitS3

/// A large file's parts go up side by side (issue 24: transfers side by side), no more at
/// once than the store's buffer budget holds, and an upload interrupted with parts under
/// way is resumed from those that arrived.
@Suite struct S3RemoteStoreConcurrencyTests {
    static let enabled = S3TestServer.isAvailable
    static let skipReason: Comment = "needs moto_server: run scripts/setup.sh"

    private func store(_ server: S3TestServer, at endpoint: URL, retries: Int = 8) -> S3RemoteStore {
        let credentials = S3Credentials(accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret)
        let store = S3RemoteStore(
            bucket: "parts", prefix: "p", endpoint: endpoint, region: "us-east-1", credentials: credentials,
            retryPolicy: S3RetryPolicy(maxRetries: retries))
        store.partSize = 5 << 20
        return store
    }

    private func client(_ server: S3TestServer) -> S3Client {
        S3Client(
            endpoint: server.endpoint, region: "us-east-1",
            credentials: S3Credentials(accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret))
    }

    /// Through a link with 30 ms each way, the parts of one file are on their way together,
    /// never more than the budget's worth, and all of the budget is given back.
    @Test(.enabled(if: enabled, skipReason))
    func thePartsOfAFileGoSideBySideWithinTheBudget() throws {
        let server = try S3TestServer(bucket: "parts")
        let proxy = try FaultProxy(upstreamPort: try #require(server.endpoint.port), seed: 1, rate: 0, latency: 0.03)
        let store = store(server, at: URL(string: proxy.endpoint)!)
        let data = Fixtures.noise(22 << 20, seed: 7)
        let sent = try store.upload("blob", from: FileWrapper(regularFileWithContents: data), size: UInt64(data.count))
        #expect(sent == UInt64(data.count))
        #expect(try store.read("blob")?.data == data)
        #expect(proxy.mostAtOnce >= 2, "parts one at a time")
        #expect(
            proxy.mostAtOnce <= S3RemoteStore.bufferBudget / store.partSize,
            "\(proxy.mostAtOnce) parts at once: over the budget")
        #expect(store.buffers.taken == 0)
    }

    /// A part that fails for good ends the upload with that part's error, once the parts
    /// under way have ended; the same upload run again sends only the parts that did not
    /// arrive, and the object is whole.
    @Test(.enabled(if: enabled, skipReason))
    func anUploadInterruptedWithPartsUnderWayResumesFromThoseThatArrived() async throws {
        let server = try S3TestServer(bucket: "parts")
        // Every attempt at part 4 fails: the upload cannot finish through this proxy.
        let proxy = try FaultProxy(
            upstreamPort: try #require(server.endpoint.port), seed: 2, rate: 1, faults: [.internalError], latency: 0.02,
            only: { $0.contains("partNumber=4&") })
        let failing = store(server, at: URL(string: proxy.endpoint)!, retries: 0)
        let data = Fixtures.noise(27 << 20, seed: 8)
        let error = #expect(throws: DocumentKitError.self) {
            try failing.upload("blob", from: FileWrapper(regularFileWithContents: data), size: UInt64(data.count))
        }
        #expect(
            error?.message.contains("UploadPart blob") == true && error?.message.contains("500") == true
                && error?.path == "s3://parts/p", "\(String(describing: error))")
        #expect(failing.buffers.taken == 0, "a failed upload gives its buffers back")

        let client = client(server)
        let uploads = try await client.unfinishedUploads(bucket: "parts", key: "p/blob")
        let id = try #require(uploads.first)
        let arrived = try #require(try await client.uploadedParts(uploadID: id, bucket: "parts", key: "p/blob"))
        #expect(arrived[4] == nil && !arrived.isEmpty, "\(arrived.keys.sorted())")

        let resumed = store(server, at: server.endpoint)
        let sent = try resumed.upload(
            "blob", from: FileWrapper(regularFileWithContents: data), size: UInt64(data.count))
        #expect(
            sent == UInt64(data.count) - arrived.values.reduce(0) { $0 + $1.size },
            "parts that arrived are not sent again")
        #expect(try resumed.read("blob")?.data == data)
        #expect(try await client.unfinishedUploads(bucket: "parts", key: "p/blob").isEmpty)
    }
}
