import Foundation
import Testing

@testable import DocumentKit

/// Real zip64: an entry past 4 GiB, and entries and a central directory past the 4 GiB
/// offset. The 4.1 GiB of zeros stream from a 1 MiB buffer and the writer leaves them as a
/// hole, so the file takes a few kilobytes of disk; the cost is the CRC-32 (about 10 s in
/// a debug build, 2 s in release).
@Suite(.serialized) struct StoredZipZip64Tests {
    static let slowTestsEnabled = ProcessInfo.processInfo.environment["DOCUMENTKIT_SLOW_TESTS"] != nil

    /// Writes `mimetype`, the 4.1 GiB `zeros`, and `after.txt` (whose local header is past 4 GiB).
    static func writeBigArchive(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("big.zip")
        let zeros = Data(count: 1 << 20)
        try writeStoredZip(at: path) { writer in
            try writer.addEntry(name: "mimetype", data: Data("x/y".utf8))
            try writer.addEntry(name: "zeros", size: Zip64Fixtures.bigSize) { sink in
                for _ in 0..<(Zip64Fixtures.bigSize >> 20) { try sink.write(zeros) }
            }
            try writer.addEntry(name: "after.txt", data: Data("after".utf8))
        }
        return path
    }

    @Test func zeroCRCHelperIsRight() {
        for count: UInt64 in [0, 1, 7, 1000, 65_537] {
            #expect(Zip64Fixtures.crc32OfZeros(count) == CRC32.checksum(Data(count: Int(count))))
        }
    }

    /// Under ThreadSanitizer the 4.1 GiB of CRC-32 takes hours (every table lookup is
    /// checked), and the test runs on one thread, so TSan has nothing to find in it; the
    /// smaller zip64 tests below still run.
    @Test(
        .disabled(
            if: Sanitizer.thread,
            "4.1 GiB of CRC-32 under ThreadSanitizer takes hours; single-threaded, nothing for TSan to check"))
    func entriesPastFourGiBAreListedAndReadByEveryTool() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeBigArchive(in: directory)

        let reader = try StoredZipReader(path: path)
        #expect(reader.entries.map(\.name) == ["mimetype", "zeros", "after.txt"])
        let zeros = reader.entries[1]
        #expect(zeros.size == Zip64Fixtures.bigSize)
        #expect(zeros.crc32 == Zip64Fixtures.crc32OfZeros(Zip64Fixtures.bigSize))
        #expect(zeros.dataOffset == 41 + 30 + 5 + 20)  // the local header carries the zip64 extra
        let after = reader.entries[2]
        #expect(after.localHeaderOffset > UInt64(UInt32.max))
        for entry in reader.entries { try reader.verifyLocalHeader(entry) }
        #expect(try reader.readData(after) == Data("after".utf8))

        do {
            try #require(ExternalTool.bsdtar.isAvailable, "bsdtar is installed (scripts/setup.sh)")
            let list = try ExternalTool.bsdtar.run(["-tvf", path])
            #expect(list.status == 0, "\(list.standardError)")
            #expect(list.output.contains(" \(Zip64Fixtures.bigSize) "), "\(list.output)")
            let extract = try ExternalTool.bsdtar.run(["-xOf", path, "after.txt"])
            #expect(extract.standardOutput == Data("after".utf8), "\(extract.standardError)")
        }
        do {
            try #require(ExternalTool.unzip.isAvailable, "unzip is installed (scripts/setup.sh)")
            let print = try ExternalTool.unzip.run(["-p", path, "after.txt"])
            #expect(print.status == 0 && print.standardOutput == Data("after".utf8), "\(print.standardError)")
        }
        do {
            try #require(ExternalTool.python3.isAvailable, "python3 is installed (scripts/setup.sh)")
            let result = try ExternalTool.python(
                """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                print([(i.filename, i.file_size, i.header_offset) for i in z.infolist()])
                assert z.read('after.txt') == b'after'
                """, [path])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.output.contains("('zeros', \(Zip64Fixtures.bigSize), 41)"), "\(result.output)")
        }
    }

    @Test(
        .enabled(
            if: slowTestsEnabled, "set DOCUMENTKIT_SLOW_TESTS=1 to verify 4.1 GiB of CRC-32 with every tool (~60 s)"))
    func entriesPastFourGiBPassEveryIntegrityTest() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeBigArchive(in: directory)
        let reader = try StoredZipReader(path: path)
        try reader.stream(reader.entries[1]) { _ in }
        do {
            try #require(ExternalTool.unzip.isAvailable, "unzip is installed (scripts/setup.sh)")
            let test = try ExternalTool.unzip.run(["-t", path])
            #expect(test.status == 0, "\(test.output)\(test.standardError)")
        }
        do {
            try #require(ExternalTool.python3.isAvailable, "python3 is installed (scripts/setup.sh)")
            let result = try ExternalTool.python(
                "import sys, zipfile; assert zipfile.ZipFile(sys.argv[1]).testzip() is None", [path])
            #expect(result.status == 0, "\(result.standardError)")
        }
        do {
            try #require(ExternalTool.bsdtar.isAvailable, "bsdtar is installed (scripts/setup.sh)")
            let result = try ExternalTool.bsdtar.run(["-xOf", path, "zeros"])
            #expect(
                result.status == 0 && result.standardOutput.count == Int(Zip64Fixtures.bigSize),
                "\(result.standardError)")
        }
    }

    @Test func manyEntriesUseTheZip64EndRecords() throws {
        // 65,535 entries no longer fit the end record's 16-bit count.
        let directory = try TemporaryDirectory()
        let path = directory.path("many.zip")
        try writeStoredZip(at: path) { writer in
            for index in 0..<65_535 { try writer.addEntry(name: String(index), data: Data()) }
        }
        let bytes = try bytes(ofFile: path)
        #expect(Array(bytes.suffix(22).prefix(12)) == [0x50, 0x4B, 0x05, 0x06, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Array(bytes.suffix(42).prefix(4)) == [0x50, 0x4B, 0x06, 0x07])
        let reader = try StoredZipReader(path: path)
        #expect(reader.entries.count == 65_535)
        #expect(reader.entry(named: "65534")?.index == 65_534)
        do {
            try #require(ExternalTool.python3.isAvailable, "python3 is installed (scripts/setup.sh)")
            let result = try ExternalTool.python(
                "import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).infolist()))", [path])
            #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "65535", "\(result.standardError)")
        }
    }
}
