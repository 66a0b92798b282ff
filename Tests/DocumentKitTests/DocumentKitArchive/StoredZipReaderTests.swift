import Foundation
import Testing

@testable import DocumentKit

@Suite struct StoredZipReaderTests {
    @Test func looksUpEntriesByNameAndStreamsThem() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.zip")
        let big = Data((0..<1_000_003).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        try writeStoredZip(at: path) { writer in
            try writer.addEntry(name: "mimetype", data: Data("x/y".utf8))
            try writer.addEntry(name: "big", data: big)
            try writer.addEntry(name: "empty", data: Data())
        }
        let reader = try StoredZipReader(path: path)
        #expect(reader.entries.map(\.name) == ["mimetype", "big", "empty"])
        #expect(reader.entry(named: "missing") == nil)
        let mimetype = try #require(reader.entry(named: "mimetype"))
        #expect(mimetype.localHeaderOffset == 0)
        #expect(mimetype.dataOffset == 38)  // the ODF/EPUB position `file` looks at

        var streamed = Data()
        var blocks = 0
        try reader.stream(try #require(reader.entry(named: "big")), blockSize: 65_536) { bytes in
            streamed.append(contentsOf: bytes)
            blocks += 1
        }
        #expect(streamed == big)
        #expect(blocks == 16)
        var emptyCalls = 0
        try reader.stream(try #require(reader.entry(named: "empty"))) { _ in emptyCalls += 1 }
        #expect(emptyCalls == 0)
        #expect(try reader.readData(try #require(reader.entry(named: "empty"))).isEmpty)
    }

    @Test func copiesEntriesByteForByte() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.zip")
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        try writeStoredZip(at: source) { writer in
            try writer.addEntry(name: "mimetype", data: Data("x/y".utf8))
            try writer.addEntry(name: "objects/aa", data: payload)
            try writer.addEntry(name: "document.json", data: Data("{}".utf8))
        }
        let reader = try StoredZipReader(path: source)
        let copied = directory.path("copied.zip")
        try writeStoredZip(at: copied) { writer in
            try writer.copyEntry(try #require(reader.entry(named: "mimetype")), from: reader)
            try writer.copyEntry(try #require(reader.entry(named: "objects/aa")), from: reader, as: "objects/bb")
            try writer.addEntry(name: "document.json", data: Data("{\"v\":2}".utf8))
        }
        let fresh = directory.path("fresh.zip")
        try writeStoredZip(at: fresh) { writer in
            try writer.addEntry(name: "mimetype", data: Data("x/y".utf8))
            try writer.addEntry(name: "objects/bb", data: payload)
            try writer.addEntry(name: "document.json", data: Data("{\"v\":2}".utf8))
        }
        // A copied entry is indistinguishable from one written afresh.
        #expect(try bytes(ofFile: copied) == bytes(ofFile: fresh))
        let copy = try StoredZipReader(path: copied)
        #expect(try copy.readData(try #require(copy.entry(named: "objects/bb"))) == payload)
    }

    @Test func streamsAnEntryFromOneArchiveIntoAnother() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.zip")
        let payload = Data((0..<2_500_000).map { UInt8(truncatingIfNeeded: $0 % 253) })
        try writeStoredZip(at: source) { try $0.addEntry(name: "a", data: payload) }
        let reader = try StoredZipReader(path: source)
        let entry = try #require(reader.entry(named: "a"))
        let target = directory.path("target.zip")
        // The sink is borrowed by the nested closure: the usual way to pipe bytes through.
        try writeStoredZip(at: target) { writer in
            try writer.addEntry(name: "b", size: entry.size) { sink in
                try reader.stream(entry, blockSize: 100_000) { bytes in try sink.write(bytes) }
            }
        }
        let copy = try StoredZipReader(path: target)
        #expect(try copy.readData(try #require(copy.entry(named: "b"))) == payload)
        #expect(copy.entries[0].crc32 == entry.crc32)
    }

    @Test func copyRefusesEntriesOfAnotherArchive() throws {
        let directory = try TemporaryDirectory()
        let first = directory.path("first.zip")
        let second = directory.path("second.zip")
        try writeStoredZip(at: first) { try $0.addEntry(name: "a", data: Data("1".utf8)) }
        try writeStoredZip(at: second) { try $0.addEntry(name: "b", data: Data("22".utf8)) }
        let reader1 = try StoredZipReader(path: first)
        let reader2 = try StoredZipReader(path: second)
        let foreign = try #require(reader2.entry(named: "b"))
        expectArchiveError(.malformed) { _ = try reader1.readData(foreign) }
        let fd = open(directory.path("out.zip"), O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        expectArchiveError(.malformed) {
            try StoredZipWriter(fileDescriptor: fd, path: "out.zip").copyEntry(foreign, from: reader1)
        }
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable, "python3 is not installed"))
    func readsStoredZipsWrittenByPython() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("python.zip")
        let result = try ExternalTool.python(
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:
                z.writestr('a.txt', 'hello')
                z.writestr('dir/\u{00FC}.txt', 'world')
            """, [path])
        #expect(result.status == 0, "\(result.standardError)")
        let reader = try StoredZipReader(path: path)
        #expect(reader.entries.map(\.name) == ["a.txt", "dir/ü.txt"])
        #expect(try reader.readData(try #require(reader.entry(named: "dir/ü.txt"))) == Data("world".utf8))
    }

    @Test func handlesManyEntries() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("many.zip")
        try writeStoredZip(at: path) { writer in
            for index in 0..<20_000 { try writer.addEntry(name: "e/\(index)", data: Data("\(index)".utf8)) }
        }
        let reader = try StoredZipReader(path: path)
        #expect(reader.entries.count == 20_000)
        #expect(try reader.readData(try #require(reader.entry(named: "e/12345"))) == Data("12345".utf8))
    }
}
