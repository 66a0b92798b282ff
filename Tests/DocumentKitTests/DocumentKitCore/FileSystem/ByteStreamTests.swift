import Foundation
import Testing

@testable import DocumentKit

/// Standard input and output as the commands use them with `-`: a pipe read to its end in
/// blocks, written in full however short the pipe's writes are, and bounded.
@Suite struct ByteStreamTests {
    /// A pipe whose write end `fill` writes on another thread while the read end is read.
    private func readingPipe(_ read: (ByteStream) throws -> Void, fill: @escaping @Sendable (ByteStream) throws -> Void)
        throws
    {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        let writing = Thread {
            try? fill(ByteStream(descriptor: writer, name: "the pipe"))
            close(writer)
        }
        writing.start()
        try read(ByteStream(descriptor: reader, name: "the pipe"))
    }

    @Test func aPipeIsReadToItsEndInBlocks() throws {
        // More than a pipe's 64 KiB buffer, so the writer's writes come back short and the
        // reader's reads come in pieces.
        let bytes = Data((0..<3_000_003).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) })
        var received = Data()
        var largest = 0
        try readingPipe(
            { stream in
                try stream.stream(blockSize: 100_000) { block in
                    largest = max(largest, block.count)
                    received.append(contentsOf: block)
                }
            }, fill: { try $0.write(bytes) })
        #expect(received == bytes)
        #expect(largest <= 100_000)
    }

    @Test func readingPastTheLimitIsRefusedNamingTheStream() throws {
        let bytes = Data(repeating: 0x41, count: 200_000)
        var failure: (any Error)?
        try readingPipe(
            { stream in
                do { _ = try stream.readAll(limit: 150_000) } catch { failure = error }
            }, fill: { try? $0.write(bytes) })
        let error = try #require(failure as? DocumentKitError)
        #expect(error.code == .malformedInput)
        #expect(error.description == "the pipe: more than the limit of 150000 bytes")
        var whole = Data()
        try readingPipe({ whole = try $0.readAll(limit: 200_000) }, fill: { try $0.write(bytes) })
        #expect(whole == bytes, "the limit itself is allowed")
    }

    @Test func aClosedDescriptorIsAnErrorNamingTheStream() throws {
        let stream = ByteStream(descriptor: 987_654, name: "standard input")
        #expect(throws: DocumentKitError.self) { try stream.readAll(limit: 10) }
        do {
            _ = try stream.readAll(limit: 10)
        } catch let error as DocumentKitError {
            #expect(error.description == "standard input: cannot read: Bad file descriptor")
        }
    }
}
