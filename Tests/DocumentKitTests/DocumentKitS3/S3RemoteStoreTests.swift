import DocumentKit
@testable import DocumentKitS3
import Foundation
import Testing

/// The S3 remote store on a real S3-compatible server: large files in parts, and an
/// interrupted upload resumed without sending again the parts that arrived.
@Suite struct S3RemoteStoreTests {
    @Test(.enabled(if: S3TestServer.isAvailable, "needs moto_server: run scripts/setup.sh"))
    func anInterruptedMultipartUploadSendsOnlyTheMissingParts() async throws {
        let server = try S3TestServer(bucket: "parts")
        let credentials = S3Credentials(accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret)
        let store = S3RemoteStore(bucket: "parts", prefix: "p", endpoint: server.endpoint, region: "us-east-1", credentials: credentials)
        store.partSize = 5 << 20
        let data = Fixtures.noise(12 << 20)

        // An upload that got as far as its first part, as a killed push leaves it.
        let client = S3Client(endpoint: server.endpoint, region: "us-east-1", credentials: credentials)
        let id = try await client.startMultipartUpload(bucket: "parts", key: "p/blob")
        _ = try await client.uploadPart(data.prefix(5 << 20), number: 1, uploadID: id, bucket: "parts", key: "p/blob")

        let sent = try store.upload("blob", from: FileWrapper(regularFileWithContents: data), size: UInt64(data.count))
        #expect(sent == UInt64(data.count - (5 << 20)))
        #expect(try store.read("blob")?.data == data)
        #expect(try await client.unfinishedUploads(bucket: "parts", key: "p/blob").isEmpty)

        // Read back in a stream, to a file.
        let directory = try TemporaryDirectory()
        try store.download("blob", to: directory.url.appendingPathComponent("copy"))
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("copy")) == data)
    }
}
