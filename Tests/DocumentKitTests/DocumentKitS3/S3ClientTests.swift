import Foundation
import NIOCore
import Testing

@testable import DocumentKitS3

/// The S3 client: SigV4 by AWS's own example, and every call against each real
/// S3-compatible server on 127.0.0.1 (moto and radosgw), whose differences it takes.
@Suite struct S3ClientTests {
    private let credentials = S3Credentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")

    @Test func signsAWSsExampleRequestAsAWSDoes() {
        // "GET Object" of AWS's SigV4 documentation: the first ten bytes of test.txt.
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1")
        let date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z
        let headers = signer.signedHeaders(
            method: "GET", path: "/test.txt", query: [],
            headers: ["Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9"],
            payloadHash: SigV4Signer.payloadHash(Data()), date: date)
        #expect(
            headers["authorization"]
                == """
                AWS4-HMAC-SHA256 \
                Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41
                """
        )
        #expect(headers["x-amz-date"] == "20130524T000000Z")
        #expect(!"\(S3Credentials(accessKeyID: "AKID", secretAccessKey: "SECRET"))".contains("SECRET"))
    }

    private func client(_ server: S3TestServer) -> S3Client {
        S3Client(
            endpoint: server.endpoint, region: "us-east-1",
            credentials: S3Credentials(accessKeyID: server.credentials.id, secretAccessKey: server.credentials.secret))
    }

    @Test(
        .enabled(if: S3TestServer.isAvailable, "needs moto_server: run scripts/setup.sh"), arguments: S3Service.allCases
    )
    func putsReadsListsAndDeletesObjects(_ service: S3Service) async throws {
        let server = try S3TestServer(service)
        let s3 = client(server)
        let remote = server.bucket("remote")
        try await s3.createBucket(remote)
        let etag = try await s3.put(Data("hello".utf8), bucket: remote, key: "a/b c.txt")
        try await s3.put(Data("x".utf8), bucket: remote, key: "a/z")
        try await s3.put(Data("y".utf8), bucket: remote, key: "other")
        let read = try #require(try await s3.get(bucket: remote, key: "a/b c.txt"))
        #expect(read.data == Data("hello".utf8) && read.etag == etag)
        #expect(
            try await s3.head(bucket: remote, key: "a/b c.txt")
                == S3Client.ObjectInfo(key: "a/b c.txt", size: 5, etag: etag))
        #expect(try await s3.list(bucket: remote, prefix: "a/").map(\.key) == ["a/b c.txt", "a/z"])
        try await s3.delete(bucket: remote, key: "a/z")
        #expect(try await s3.get(bucket: remote, key: "a/z") == nil)
        #expect(try await s3.head(bucket: remote, key: "a/z") == nil)
    }

    @Test(
        .enabled(if: S3TestServer.isAvailable, "needs moto_server: run scripts/setup.sh"), arguments: S3Service.allCases
    )
    func conditionalWritesLetOneWriterWin(_ service: S3Service) async throws {
        let server = try S3TestServer(service)
        let s3 = client(server)
        let remote = server.bucket("remote")
        try await s3.createBucket(remote)
        let first = try await s3.put(Data("1".utf8), bucket: remote, key: "head", ifNoneMatch: true)
        let exists = await #expect(throws: S3Error.self) {
            try await s3.put(Data("2".utf8), bucket: remote, key: "head", ifNoneMatch: true)
        }
        #expect(exists?.isPreconditionFailure == true)
        let second = try await s3.put(Data("3".utf8), bucket: remote, key: "head", ifMatch: first)
        let stale = await #expect(throws: S3Error.self) {
            try await s3.put(Data("4".utf8), bucket: remote, key: "head", ifMatch: first)
        }
        #expect(stale?.isPreconditionFailure == true)
        #expect(try await s3.get(bucket: remote, key: "head")?.data == Data("3".utf8) && second != first)
        // The ETag as HEAD gives it, in quotes, matches (radosgw compares If-Match verbatim
        // with its unquoted ETag: the client sends it without them).
        let current = try #require(try await s3.head(bucket: remote, key: "head")?.etag)
        #expect(current.hasPrefix("\"") && current == second)
        let third = try await s3.put(Data("5".utf8), bucket: remote, key: "head", ifMatch: current)
        // Matching an object that went loses too (AWS and moto answer 404, radosgw 412).
        try await s3.delete(bucket: remote, key: "head")
        let gone = await #expect(throws: S3Error.self) {
            try await s3.put(Data("6".utf8), bucket: remote, key: "head", ifMatch: third)
        }
        #expect(gone?.isPreconditionFailure == true, "\(String(describing: gone))")
        #expect(try await s3.get(bucket: remote, key: "head") == nil)
    }

    @Test(
        .enabled(if: S3TestServer.isAvailable, "needs moto_server: run scripts/setup.sh"), arguments: S3Service.allCases
    )
    func largeObjectsGoUpInPartsAndAnUploadResumes(_ service: S3Service) async throws {
        let server = try S3TestServer(service)
        let s3 = client(server)
        let remote = server.bucket("remote")
        try await s3.createBucket(remote)
        let part = 5 << 20
        let data = Data((0..<(part + 1000)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let upload = try await s3.startMultipartUpload(bucket: remote, key: "big")
        let one = try await s3.uploadPart(data.prefix(part), number: 1, uploadID: upload, bucket: remote, key: "big")
        // Interrupted here: the upload is found again with the part that arrived.
        #expect(try await s3.unfinishedUploads(bucket: remote, key: "big") == [upload])
        let arrived = try #require(try await s3.uploadedParts(uploadID: upload, bucket: remote, key: "big"))
        #expect(arrived.keys.sorted() == [1] && arrived[1]?.etag == one && arrived[1]?.size == UInt64(part))
        let two = try await s3.uploadPart(
            data.suffix(from: part), number: 2, uploadID: upload, bucket: remote, key: "big")
        try await s3.completeMultipartUpload(uploadID: upload, parts: [1: one, 2: two], bucket: remote, key: "big")
        #expect(try await s3.get(bucket: remote, key: "big")?.data == data)
        #expect(try await s3.unfinishedUploads(bucket: remote, key: "big").isEmpty)

        // An upload abandoned (by another push) after it was listed has no parts to resume
        // from: gone, not an error (AWS and moto say NoSuchUpload, radosgw NoSuchKey).
        let abandoned = try await s3.startMultipartUpload(bucket: remote, key: "big")
        try await s3.abortMultipartUpload(uploadID: abandoned, bucket: remote, key: "big")
        #expect(try await s3.uploadedParts(uploadID: abandoned, bucket: remote, key: "big") == nil)
    }

    @Test(
        .enabled(if: S3TestServer.isAvailable, "needs moto_server: run scripts/setup.sh"), arguments: S3Service.allCases
    )
    func aMissingBucketAndAnUnreachableEndpointAreErrorsThatSaySo(_ service: S3Service) async throws {
        let server = try S3TestServer(service)
        let missing = await #expect(throws: S3Error.self) {
            try await client(server).put(Data(), bucket: "nowhere", key: "k")
        }
        #expect(missing?.code == "NoSuchBucket" && missing?.resource == "nowhere/k")
        // The shared HTTP client retries a refused connection until the request's deadline.
        var closed = S3Client(
            endpoint: URL(string: "http://127.0.0.1:9")!, region: "us-east-1", credentials: credentials)
        closed.timeout = .seconds(3)
        let unreachable = await #expect(throws: S3Error.self) { try await closed.get(bucket: "b", key: "k") }
        // Not tried again: an endpoint that is not there will not be there a moment later.
        #expect(unreachable?.kind == .unreachable && unreachable?.retries == 0)
        #expect(unreachable?.description.hasPrefix("GetObject b/k: cannot reach http://127.0.0.1:9: ") == true)
    }

    /// A connection that closes, or a server that stops answering, is said in plain words,
    /// never with the HTTP library's type names (`HTTPClientError.remoteConnectionClosed`),
    /// once the retries it was given ran out.
    @Test func aBrokenConnectionAndAFrozenServerAreSaidInPlainWords() async throws {
        let closing = try FaultyServer(.closing)
        var client = S3Client(endpoint: URL(string: closing.endpoint)!, region: "us-east-1", credentials: credentials)
        client.retryPolicy.maxRetries = 1
        client.retryPolicy.jitter = { 0 }
        let closed = await #expect(throws: S3Error.self) { try await client.get(bucket: "b", key: "k") }
        #expect(closed?.kind == .interrupted && closed?.retries == 1)
        #expect(
            closed?.description
                == "GetObject b/k: \(closing.endpoint) closed the connection before it answered (gave up after 1 retry)"
        )

        let frozen = try FaultyServer(.silent)
        client = S3Client(endpoint: URL(string: frozen.endpoint)!, region: "us-east-1", credentials: credentials)
        client.retryPolicy.maxRetries = 0
        client.timeout = .seconds(2)
        // The message names the deadline; how soon it is said is not timed here (a loaded
        // machine delays the test's own resumption, not the deadline).
        let silent = await #expect(throws: S3Error.self) { try await client.put(Data("x".utf8), bucket: "b", key: "k") }
        #expect(silent?.description == "PutObject b/k: \(frozen.endpoint) stopped answering: no answer within 2 s")
        #expect(silent?.isTimeout == true)
        for error in [closed, silent] { #expect(error?.description.contains("HTTPClientError") == false) }
    }
}
