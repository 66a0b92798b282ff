import AsyncHTTPClient
import DocumentKit
import DocumentKitCore
import Foundation
import NIOCore

/// A remote in a bucket of an S3-compatible service, below a key prefix: `s3://bucket/prefix`.
///
/// Conditional writes make the compare-and-swap: `If-None-Match: *` creates the head only
/// when there is none, `If-Match` replaces only the version read (tags are ETags). Files
/// over ``partSize`` go up in multipart uploads; an interrupted one is found again
/// (`ListMultipartUploads`) and its parts whose size and MD5 match are not sent again.
/// Downloads are streamed to a file as they arrive.
///
/// The protocol's calls are synchronous and each waits for its requests, so that a push
/// runs several side by side on threads of its own (``TransferQueue``). A large file is
/// read in a stream on the calling thread while its parts already read are on their way;
/// the bodies held in memory by all the transfers of a store, parts and small files, are
/// bounded by ``bufferBudget`` together.
public final class S3RemoteStore: RemoteStore, @unchecked Sendable {
    public let bucket: String
    /// The key prefix, without a trailing `/`; empty for the whole bucket.
    public let prefix: String
    /// The size of a part of a multipart upload; files up to it go in one request.
    public var partSize = S3RemoteStore.defaultPartSize
    /// 8 MiB, as boto3's transfer manager and the AWS CLI have it.
    public static let defaultPartSize = 8 << 20
    /// The client its requests (and a multipart upload's) go through.
    let client: S3Client
    private let http: HTTPClient
    /// The bytes of request bodies its transfers hold in memory at once, in all: with the
    /// default part size, two parts on their way (or many small files), which keeps a
    /// push of any size under 64 MiB (at 24 MiB, the bench bundle's push peaked at 64.4).
    public static let bufferBudget = 16 << 20
    /// What ``bufferBudget`` leaves of the bytes bodies may hold now.
    let buffers = ByteBudget(capacity: S3RemoteStore.bufferBudget)
    /// The requests that carry a body (a small file, a part) that may be under way at
    /// once: the jobs the store was made for, so that a push runs no more than that many,
    /// parts of large files included, and one job sends one at a time.
    let slots: ByteBudget

    /// A store on `bucket` below `prefix`, at `endpoint`. Connections that fail to open are
    /// not retried and time out after `connectTimeout`, so that an unreachable endpoint is
    /// an error at once rather than after every request's deadline; requests that fail
    /// once under way are retried as `retryPolicy` says, and a body that stalls for its
    /// timeout is such a failure. Connections are kept for `jobs` transfers at once, and
    /// the parts of the large files among them.
    public init(
        bucket: String, prefix: String, endpoint: URL, region: String, credentials: S3Credentials,
        connectTimeout: TimeAmount = .seconds(10),
        retryPolicy: S3RetryPolicy = S3RetryPolicy(), jobs: Int = TransferQueue.defaultJobs
    ) {
        self.bucket = bucket
        self.prefix = prefix.split(separator: "/").joined(separator: "/")
        slots = ByteBudget(capacity: max(jobs, 1))
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: min(connectTimeout, retryPolicy.timeout), read: retryPolicy.timeout))
        configuration.connectionPool.retryConnectionEstablishment = false
        // Beyond the client's default (8), a transfer would wait for another's connection.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(
            8, jobs + S3RemoteStore.bufferBudget / S3RemoteStore.defaultPartSize)
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        var client = S3Client(
            endpoint: endpoint, region: region, credentials: credentials, http: http,
            budget: S3RetryBudget(retries: retryPolicy.budget))
        client.retryPolicy = retryPolicy
        self.client = client
    }

    /// How many requests were tried again so far, for a command's report.
    public var retries: Int { client.budget.retries }

    deinit {
        try? http.syncShutdown()
    }

    public var displayPath: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }

    private func key(_ path: String) -> String {
        prefix.isEmpty ? path : path.isEmpty ? prefix : "\(prefix)/\(path)"
    }

    public func read(_ path: String) throws -> (data: Data, tag: String)? {
        try call(path) { [client, bucket] key in try await client.get(bucket: bucket, key: key) }.map {
            ($0.data, $0.etag)
        }
    }

    public func size(_ path: String) throws -> UInt64? {
        try call(path) { [client, bucket] key in try await client.head(bucket: bucket, key: key)?.size }
    }

    public func list(prefix path: String) throws -> [String: UInt64] {
        // The whole remote is what is below `prefix/`, not every key that starts with it.
        let folder = path.isEmpty && !prefix.isEmpty ? "/" : ""
        let objects = try call(path) { [client, bucket] key in
            try await client.list(bucket: bucket, prefix: key + folder)
        }
        let strip = prefix.isEmpty ? 0 : prefix.count + 1
        var sizes: [String: UInt64] = [:]
        for object in objects where object.key.count >= strip {
            sizes[String(object.key.dropFirst(strip))] = object.size
        }
        return sizes
    }

    public func write(_ path: String, _ data: Data) throws {
        try call(path) { [client, bucket] key in try await client.put(data, bucket: bucket, key: key) }
    }

    /// Progress (a push counts the bytes it reads to send) counts each piece once the
    /// service has taken it, not as it is read: read ahead of its request, it would show
    /// a push at 98% while its last part was still on the way.
    public func upload(_ path: String, from file: FileWrapper, size: UInt64) throws -> UInt64 {
        guard size > UInt64(partSize) else {
            let held = buffers.take(Int(size))
            defer { buffers.give(held) }
            var body = ByteBufferAllocator().buffer(capacity: Int(size))
            try ProgressMeter.bind(nil) { try file.streamContents { body.writeBytes($0) } }
            let slot = slots.take(1)
            defer { slots.give(slot) }
            try call(path) { [client, bucket, body] key in try await client.put(body, bucket: bucket, key: key) }
            ProgressMeter.advance(.read, by: body.readableBytes)
            return UInt64(body.readableBytes)
        }
        return try MultipartUpload(store: self, path: path, key: key(path)).send(file)
    }

    /// Nothing to do: an object is stored durably before its PUT is answered.
    public func flush() throws {}

    /// A lost answer is settled by reading the key back (``S3Client/putIfUnchanged(_:bucket:key:ifTag:)``).
    public func replace(_ path: String, with data: Data, ifTag tag: String?) throws -> Bool {
        try call(path) { [client, bucket] key in
            try await client.putIfUnchanged(data, bucket: bucket, key: key, ifTag: tag)
        }
    }

    public func delete(_ path: String) throws {
        try call(path) { [client, bucket] key in try await client.delete(bucket: bucket, key: key) }
    }

    public func download(_ path: String, to url: URL) throws {
        guard FileTree.createEmptyFile(url.path),
            let output = FileHandle(forWritingAtPath: url.path)
        else {
            throw DocumentKitError(.cannotCreateOutput, "cannot create the file", path: url.path)
        }
        defer { try? output.close() }
        // Progress counts the bytes as they arrive; the requests run on threads of their
        // own, where the meter of the calling thread is bound again for each piece.
        let meter = ProgressMeter.current
        do {
            try call(path) { [client, bucket] key in
                try await client.download(bucket: bucket, key: key, to: output) { bytes in
                    ProgressMeter.bind(meter) { ProgressMeter.advance(.read, by: bytes) }
                }
            }
        } catch let error as DocumentKitError {
            throw error
        } catch {
            // Writing the local file failed (a full disk): the file's error, not the remote's.
            throw DocumentKitError.system("cannot write the file", path: url.path, error: error)
        }
    }

    /// Runs one request for the file at `path` and waits for it; an S3 failure becomes
    /// the `DocumentKitError` a user reads (``S3RemoteStore/error(_:remote:path:)``).
    @discardableResult
    func call<T: Sendable>(_ path: String, _ request: @escaping @Sendable (String) async throws -> T) throws -> T {
        let key = key(path)
        do {
            return try Self.wait { try await request(key) }
        } catch {
            throw failure(error, path: path)
        }
    }

    /// What a request for the file at `path` that threw `error` fails with: an S3 failure
    /// as the `DocumentKitError` a user reads, anything else as it is.
    func failure(_ error: any Error, path: String) -> any Error {
        guard let error = error as? S3Error else { return error }
        return Self.error(error, remote: displayPath, path: path)
    }

    /// Waits for `work`, run as a task on threads of its own: the caller may itself be on
    /// one of the few cooperative threads Swift's tasks share (a test, an app's async code
    /// calling a synchronous push), and a task that needed that thread to go on would
    /// never end.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Protected<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        start {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.value = result
            done.signal()
        }
        done.wait()
        return try outcome.value!.get()
    }

    /// Starts `work` as a task on the requests' threads, and does not wait for it.
    static func start(_ work: @escaping @Sendable () async -> Void) {
        Task(executorPreference: RequestExecutor.shared) { await work() }
    }
}

/// One multipart upload of a large file, resuming an interrupted upload of the same key:
/// a part already there with this part's size and MD5 (its ETag) is not sent again.
private struct MultipartUpload {
    let store: S3RemoteStore
    let path: String
    let key: String

    func send(_ file: FileWrapper) throws -> UInt64 {
        let (bucket, client) = (store.bucket, store.client)
        let existing = try store.call(path) { _ in try await client.unfinishedUploads(bucket: bucket, key: key) }
        var resumed: (id: String, parts: [Int: (etag: String, size: UInt64)])?
        if let id = existing.last,
            let parts = try store.call(
                path, { _ in try await client.uploadedParts(uploadID: id, bucket: bucket, key: key) })
        {
            resumed = (id, parts)
        }
        // None to resume, or it went (finished or abandoned by another push) since it was listed.
        let uploadID =
            try resumed?.id ?? store.call(path) { _ in try await client.startMultipartUpload(bucket: bucket, key: key) }
        let arrived = resumed?.parts ?? [:]
        let parts = PartsInFlight()
        // The parts under way when one fails are waited for, so that none outlives the call.
        defer { parts.finish() }
        var count = 0
        var part: (buffer: ByteBuffer, held: Int)?
        // Parts are counted as they are taken (or found there already), not as they are read.
        let meter = ProgressMeter.current
        func begin() throws {
            // A part failed: read no more, send no more.
            if let error = parts.failure { throw error }
            let held = store.buffers.take(store.partSize)
            part = (ByteBufferAllocator().buffer(capacity: store.partSize), held)
        }
        func flush() {
            guard let (body, held) = part else { return }
            part = nil
            count += 1
            let number = count
            // Hashed only for a part an earlier upload sent: a fresh one's MD5 is taken once,
            // against the ETag its PUT answers.
            if let done = arrived[number], done.size == UInt64(body.readableBytes),
                S3Client.unquoted(done.etag) == S3Client.md5(body)
            {
                parts.arrived(number, etag: done.etag, sent: 0)
                store.buffers.give(held)
                ProgressMeter.bind(meter) { ProgressMeter.advance(.read, by: body.readableBytes) }
                return
            }
            // On its way while the next part is read: the budget and the store's slots, not
            // this loop, say how many are in flight.
            let slot = store.slots.take(1)
            parts.started()
            S3RemoteStore.start { [buffers = store.buffers, slots = store.slots] in
                do {
                    let etag = try await client.uploadPart(
                        body, number: number, uploadID: uploadID, bucket: bucket, key: key)
                    parts.arrived(number, etag: etag, sent: UInt64(body.readableBytes))
                    ProgressMeter.bind(meter) { ProgressMeter.advance(.read, by: body.readableBytes) }
                } catch {
                    parts.fail(error)
                }
                slots.give(slot)
                buffers.give(held)
                parts.ended()
            }
        }
        do {
            try ProgressMeter.bind(nil) {
                try file.streamContents { block in
                    var block = block
                    while !block.isEmpty {
                        if part == nil { try begin() }
                        let take = min(block.count, store.partSize - part!.buffer.readableBytes)
                        part!.buffer.writeBytes(UnsafeRawBufferPointer(rebasing: block.prefix(take)))
                        block = UnsafeRawBufferPointer(rebasing: block.dropFirst(take))
                        if part!.buffer.readableBytes == store.partSize { flush() }
                    }
                }
            }
            if count == 0, part == nil { try begin() }
            flush()
        } catch {
            // Reading the bundle failed, or a part did: the parts under way end first.
            if let part { store.buffers.give(part.held) }
            parts.finish()
            throw parts.failure.map { store.failure($0, path: path) } ?? error
        }
        parts.finish()
        if let error = parts.failure { throw store.failure(error, path: path) }
        let etags = parts.etags
        try store.call(path) { _ in
            try await client.completeMultipartUpload(uploadID: uploadID, parts: etags, bucket: bucket, key: key)
        }
        return parts.sent
    }
}

/// The parts of one multipart upload sent side by side: their ETags as they arrive, the
/// bytes sent, the first failure, and how many are still on their way.
private final class PartsInFlight: Sendable {
    private struct State {
        var etags: [Int: String] = [:]
        var sent: UInt64 = 0
        var failure: (any Error)?
    }

    private let state = Protected(State())
    private let running = DispatchGroup()

    func started() { running.enter() }
    func ended() { running.leave() }

    /// Waits for every part under way.
    func finish() { running.wait() }

    func arrived(_ number: Int, etag: String, sent bytes: UInt64) {
        state.mutate { state in
            state.etags[number] = etag
            state.sent += bytes
        }
    }

    /// Keeps `error` if it is the first.
    func fail(_ error: any Error) {
        state.mutate { state in if state.failure == nil { state.failure = error } }
    }

    var failure: (any Error)? { state.value.failure }
    var etags: [Int: String] { state.value.etags }
    var sent: UInt64 { state.value.sent }
}

extension S3RemoteStore {
    /// A store with the credentials, region and endpoint the AWS tools would use
    /// (``S3Credentials/standard(environment:home:)``, ``S3Credentials/region(environment:home:)``,
    /// ``S3Credentials/endpoint(environment:home:region:)``), unless `endpoint` is given;
    /// each request given `timeout` seconds (default 60) and tried again up to `retries`
    /// times (default 8) when it fails in passing, all requests together up to `retryBudget`
    /// times (default ``S3RetryBudget/defaultRetries``); connections enough for `jobs` transfers
    /// at once (default ``TransferQueue/defaultJobs``).
    public static func standard(
        bucket: String, prefix: String, endpoint: String?, timeout: Double? = nil, retries: Int? = nil,
        retryBudget: Int? = nil, jobs: Int? = nil, environment: [String: String], home: String?
    ) throws -> S3RemoteStore {
        let region = S3Credentials.region(environment: environment, home: home)
        let address = endpoint ?? S3Credentials.endpoint(environment: environment, home: home, region: region)
        guard let url = URL(string: address), let scheme = url.scheme, ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw DocumentKitError(.usage, "the S3 endpoint '\(address)' is not an http:// or https:// address")
        }
        var policy = S3RetryPolicy()
        if let timeout { policy.timeout = .milliseconds(Int64(timeout * 1000)) }
        if let retries { policy.maxRetries = retries }
        if let retryBudget { policy.budget = retryBudget }
        return S3RemoteStore(
            bucket: bucket, prefix: prefix, endpoint: url, region: region,
            credentials: try S3Credentials.standard(environment: environment, home: home), retryPolicy: policy,
            jobs: jobs ?? TransferQueue.defaultJobs)
    }
}

/// Where the tasks of ``S3RemoteStore``'s requests run: a queue of its own, not the
/// cooperative threads, which a caller waiting for a request may be holding.
private final class RequestExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = RequestExecutor()
    // Concurrent: the requests of transfers side by side sign and check their bodies
    // (SHA-256, MD5) on several cores at once.
    private let queue = DispatchQueue(label: "DocumentKitS3.requests", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
