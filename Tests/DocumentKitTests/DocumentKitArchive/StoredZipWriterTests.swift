import Foundation
import Testing

@testable import DocumentKit

@Suite struct StoredZipWriterTests {
    /// The exact bytes of a one-entry bundle, field by field, as FORMAT.md §9 specifies them.
    @Test func writesTheDocumentedLayout() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("layout.zip")
        try writeStoredZip(at: path) { try $0.addEntry(name: "mimetype", data: Data("ab".utf8)) }
        let crc: [UInt8] = [0x6D, 0x48, 0x83, 0x9E]  // CRC-32 of "ab", 0x9E83486D, little-endian
        var expected: [UInt8] = []
        expected += [0x50, 0x4B, 0x03, 0x04, 0x0A, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x21, 0x00]
        expected += crc + [0x02, 0, 0, 0, 0x02, 0, 0, 0, 0x08, 0x00, 0x00, 0x00] + Array("mimetype".utf8)
        expected += Array("ab".utf8)
        expected += [0x50, 0x4B, 0x01, 0x02, 0x3F, 0x03, 0x0A, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x21, 0x00]
        expected += crc + [0x02, 0, 0, 0, 0x02, 0, 0, 0, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        expected += [0x00, 0x00, 0xA4, 0x81, 0x00, 0x00, 0x00, 0x00] + Array("mimetype".utf8)
        expected += [0x50, 0x4B, 0x05, 0x06, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00]
        expected += [0x36, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00, 0x00, 0x00]
        #expect(CRC32.checksum(Data("ab".utf8)) == 0x9E83_486D)
        #expect(Array(try bytes(ofFile: path)) == expected)
    }

    @Test func writesAnEmptyArchive() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("empty.zip")
        try writeStoredZip(at: path) { _ in }
        #expect(Array(try bytes(ofFile: path)) == [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))
        #expect(try StoredZipReader(path: path).entries.isEmpty)
    }

    @Test func streamsLargeEntriesThroughTheBufferAndPatchesTheCRC() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("large.zip")
        // 3 MiB crosses the 1 MiB output buffer, so the CRC is patched into a flushed header.
        let block = Data((0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try writeStoredZip(at: path) { writer in
            try writer.addEntry(name: "a", size: UInt64(block.count * 48)) { sink in
                for _ in 0..<48 { try sink.write(block) }
            }
            try writer.addEntry(name: "b", data: Data("after".utf8))
        }
        let reader = try StoredZipReader(path: path)
        let a = try #require(reader.entry(named: "a"))
        #expect(a.size == UInt64(block.count * 48))
        #expect(try reader.readData(a) == Data(repeatElement(block, count: 48).joined()))
        #expect(try reader.readData(#require(reader.entry(named: "b"))) == Data("after".utf8))
    }

    @Test func refusesBodiesThatWriteTooMuchOrTooLittle() throws {
        let directory = try TemporaryDirectory()
        let fd = open(directory.path("x.zip"), O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        let writer = StoredZipWriter(fileDescriptor: fd, path: "x.zip")
        expectArchiveError(.limitExceeded) {
            try writer.addEntry(name: "a", size: 2) { sink in try sink.write(Data("abc".utf8)) }
        }
        // After a failure the archive is incomplete, so the writer refuses to go on.
        expectArchiveError(.closed) { try writer.addEntry(name: "b", data: Data()) }

        let fd2 = open(directory.path("y.zip"), O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(fd2) }
        let writer2 = StoredZipWriter(fileDescriptor: fd2, path: "y.zip")
        expectArchiveError(.truncated) {
            try writer2.addEntry(name: "a", size: 4) { sink in try sink.write(Data("abc".utf8)) }
        }
    }

    @Test func refusesUnsafeAndCollidingNames() throws {
        let directory = try TemporaryDirectory()
        let fd = open(directory.path("x.zip"), O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        let writer = StoredZipWriter(fileDescriptor: fd, path: "x.zip")
        expectArchiveError(.unsafeEntry) { try writer.addEntry(name: "../evil", data: Data()) }
        try writer.addEntry(name: "Read\u{E9}.txt", data: Data())
        expectArchiveError(.duplicateEntry) { try writer.addEntry(name: "READE\u{301}.TXT", data: Data()) }
        try writer.addEntry(name: "other", data: Data())
        try writer.finish()
        expectArchiveError(.closed) { try writer.finish() }
    }
}
