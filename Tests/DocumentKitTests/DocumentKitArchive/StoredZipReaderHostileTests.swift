import Foundation
import Testing

@testable import DocumentKit

/// Hostile and damaged files: the reader refuses each with the right ``ArchiveError`` kind,
/// naming the file and the entry, and never traps.
@Suite struct StoredZipReaderHostileTests {
    /// Opens `data` written to a file, expecting `kind`; returns the error.
    @discardableResult
    func expectOpen(
        _ data: Data, fails kind: ArchiveError.Kind, limits: ArchiveLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ArchiveError? {
        let directory = try TemporaryDirectory()
        let path = directory.path("hostile.zip")
        try writeBytes(data, to: path)
        let error = expectArchiveError(kind, sourceLocation: sourceLocation) {
            _ = try StoredZipReader(path: path, limits: limits)
        }
        #expect(error?.path == path, sourceLocation: sourceLocation)
        return error
    }

    @Test func refusesFilesThatAreNotZips() throws {
        try expectOpen(Data(), fails: .notAnArchive)
        var generator = SeededRandom(seed: 0xD0C5)
        try expectOpen(Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }), fails: .notAnArchive)
        try expectOpen(
            Data([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0, 4] + [UInt8](repeating: 0, count: 40)), fails: .notAnArchive)
        try expectOpen(Data("070707".utf8) + Data(repeating: 0x30, count: 200), fails: .notAnArchive)
        let directory = try TemporaryDirectory()
        expectArchiveError(.notAnArchive) { _ = try StoredZipReader(path: directory.url.path) }
        let missing = expectSystemError(ENOENT) { _ = try StoredZipReader(path: directory.path("missing.zip")) }
        #expect(missing?.description == "\(directory.path("missing.zip")): cannot open: No such file or directory")
    }

    @Test(arguments: [4, 30, 60, 200, -40, -22, -1])
    func refusesTruncatedFiles(cut: Int) throws {
        let zip = RawZip.build([RawZip.Entry("a.txt", String(repeating: "x", count: 300)), RawZip.Entry("b", "y")])
        let length = cut > 0 ? cut : zip.count + cut
        try expectOpen(zip.prefix(length), fails: .truncated)
    }

    @Test(arguments: ["../evil", "/etc/passwd", "a\\b", "a//b", "./a", "dir/", ""])
    func refusesUnsafeNames(_ name: String) throws {
        let error = try expectOpen(RawZip.build([RawZip.Entry("ok"), RawZip.Entry(name, "x")]), fails: .unsafeEntry)
        #expect(error?.entry == name)
    }

    @Test func refusesNamesThatAreNotUTF8() throws {
        try expectOpen(RawZip.build([RawZip.Entry(bytes: [0x61, 0xFF, 0x62], [])]), fails: .unsafeEntry)
        var latin1 = RawZip.Entry(bytes: [0x63, 0x61, 0x66, 0xE9], [])  // "café" in Latin-1, no UTF-8 flag
        latin1.flags = 0
        try expectOpen(RawZip.build([latin1]), fails: .unsafeEntry)
        var utf8WithoutFlag = RawZip.Entry("café")
        utf8WithoutFlag.flags = 0
        try expectOpen(RawZip.build([utf8WithoutFlag]), fails: .unsafeEntry)
    }

    @Test(arguments: [("a.txt", "a.txt"), ("A.txt", "a.txt"), ("\u{E9}.txt", "e\u{301}.txt"), ("D/x", "d/X")])
    func refusesCollidingNames(_ first: String, _ second: String) throws {
        let error = try expectOpen(
            RawZip.build([RawZip.Entry(first, "1"), RawZip.Entry(second, "2")]), fails: .duplicateEntry)
        #expect(error?.entry == second)
    }

    @Test func refusesCompressedEncryptedAndDescriptorEntries() throws {
        var deflated = RawZip.Entry("doc.json", "{}")
        deflated.method = 8
        let error = try expectOpen(RawZip.build([deflated]), fails: .unsupported)
        #expect(
            error?.description.hasSuffix(
                "entry 'doc.json': the entry is compressed (method 8); bundle entries must be stored") == true)
        var encrypted = RawZip.Entry("secret")
        encrypted.flags |= 0x0001
        try expectOpen(RawZip.build([encrypted]), fails: .unsupported)
        var descriptor = RawZip.Entry("streamed")
        descriptor.flags |= 0x0008
        try expectOpen(RawZip.build([descriptor]), fails: .unsupported)
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable, "python3 is not installed"))
    func refusesADeflatedZipMadeByPython() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("deflated.zip")
        let result = try ExternalTool.python(
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('document.json', '{"a": 1}' * 100)
            """, [path])
        #expect(result.status == 0, "\(result.standardError)")
        let error = expectArchiveError(.unsupported) { _ = try StoredZipReader(path: path) }
        #expect(error?.entry == "document.json")
        #expect(error?.message.contains("compressed (method 8)") == true)
    }

    @Test(.enabled(if: ExternalTool.zip.isAvailable, "zip is not installed"))
    func refusesAZipMadeByInfoZIP() throws {
        let directory = try TemporaryDirectory()
        try writeBytes(Data(String(repeating: "text ", count: 1000).utf8), to: directory.path("a.txt"))
        let path = directory.path("info.zip")
        let result = try ExternalTool.zip.run(["-q", "-j", path, directory.path("a.txt")])
        #expect(result.status == 0, "\(result.standardError)")
        expectArchiveError(.unsupported) { _ = try StoredZipReader(path: path) }
    }

    @Test func detectsABadCRCWhenReading() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("damaged.zip")
        try writeStoredZip(at: path) { try $0.addEntry(name: "a.txt", data: Data("hello, world".utf8)) }
        var bytes = try bytes(ofFile: path)
        bytes[30 + 5 + 3] ^= 0x01  // a data byte of "a.txt"
        try writeBytes(bytes, to: path)
        let reader = try StoredZipReader(path: path)
        let entry = try #require(reader.entry(named: "a.txt"))
        let error = expectArchiveError(.checksumMismatch) { _ = try reader.readData(entry) }
        #expect(error?.entry == "a.txt")
        #expect(error?.path == path)
        expectArchiveError(.checksumMismatch) { try reader.stream(entry, blockSize: 4) { _ in } }
        #expect(try reader.readData(entry, verifyCRC: false).count == 12)
    }

    @Test func detectsALocalHeaderThatDisagreesWithTheCentralDirectory() throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, (inout RawZip.Entry) -> Void)] = [
            ("name", { $0.localName = Array("b.txt".utf8) }),
            ("CRC", { $0.localCRC32 = 0x1234_5678 }),
            ("size", { $0.localSize = 3 })
        ]
        for (label, change) in cases {
            var entry = RawZip.Entry("a.txt", "hello")
            change(&entry)
            let path = directory.path("\(label).zip")
            try writeBytes(RawZip.build([entry]), to: path)
            let reader = try StoredZipReader(path: path)
            let zipEntry = try #require(reader.entries.first)
            let error = expectArchiveError(.malformed) { try reader.verifyLocalHeader(zipEntry) }
            #expect(error?.entry == "a.txt", "\(label)")
            expectArchiveError(.malformed) { _ = try reader.readData(zipEntry) }
            expectArchiveError(.malformed) { try reader.stream(zipEntry) { _ in } }
        }
        // A local header saying "deflated" under a central directory saying "stored".
        var bytes = Array(RawZip.build([RawZip.Entry("a.txt", "hello")]))
        bytes[8] = 8
        let path = directory.path("method.zip")
        try writeBytes(Data(bytes), to: path)
        let reader = try StoredZipReader(path: path)
        expectArchiveError(.malformed) { _ = try reader.readData(reader.entries[0]) }
    }

    @Test func refusesOffsetsPastTheEndAndOverlappingEntries() throws {
        var far = RawZip.Entry("far", "x")
        far.centralOffset = 0x7FFF_0000
        try expectOpen(RawZip.build([far]), fails: .truncated)
        var overlapping = RawZip.Entry("second", "y")
        overlapping.centralOffset = 0
        try expectOpen(RawZip.build([RawZip.Entry("first", "x"), overlapping]), fails: .malformed)
    }

    @Test func refusesArchivesBeyondTheLimits() throws {
        let three = RawZip.build([RawZip.Entry("a", "1"), RawZip.Entry("b", "22"), RawZip.Entry("c", "333")])
        try expectOpen(three, fails: .limitExceeded, limits: ArchiveLimits(maxEntries: 2))
        try expectOpen(three, fails: .limitExceeded, limits: ArchiveLimits(maxEntryBytes: 2))
        try expectOpen(three, fails: .limitExceeded, limits: ArchiveLimits(maxTotalBytes: 5))
        let directory = try TemporaryDirectory()
        let path = directory.path("ok.zip")
        try writeBytes(three, to: path)
        _ = try StoredZipReader(path: path, limits: ArchiveLimits(maxEntries: 3, maxEntryBytes: 3, maxTotalBytes: 6))
    }

    @Test func refusesGarbageAroundTheCentralDirectory() throws {
        var bytes = Array(RawZip.build([RawZip.Entry("a", "1")]))
        // An end record that claims a central directory one byte shorter than it is.
        bytes[bytes.count - 10] &-= 1
        try expectOpen(Data(bytes), fails: .malformed)
        // A mangled central directory signature.
        var mangled = Array(RawZip.build([RawZip.Entry("a", "1")]))
        mangled[30 + 1 + 1] = 0x00
        try expectOpen(Data(mangled), fails: .malformed)
    }

    @Test func survivesEveryTruncationAndEveryFlippedByte() throws {
        // No input derived from a valid archive may trap; each is refused or read cleanly.
        let directory = try TemporaryDirectory()
        let path = directory.path("fuzz.zip")
        let zip = Array(RawZip.build([RawZip.Entry("a.txt", "hello"), RawZip.Entry("dir/b", "world!")]))
        var inputs = (0..<zip.count).map { Array(zip.prefix($0)) }
        for index in zip.indices {
            for value: UInt8 in [0x00, 0xFF, zip[index] ^ 0x80] {
                var copy = zip
                copy[index] = value
                inputs.append(copy)
            }
        }
        for (number, input) in inputs.enumerated() {
            try writeBytes(Data(input), to: path)
            // Every error is an ArchiveError: the reader's functions throw nothing else.
            guard let reader = refusing(ArchiveError.self, "input \(number)", { try StoredZipReader(path: path) })
            else { continue }
            for entry in reader.entries {
                _ = refusing(ArchiveError.self, "input \(number), \(entry.name)") { try reader.readData(entry) }
            }
        }
    }
}
