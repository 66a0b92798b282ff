import Foundation
import Testing

@testable import DocumentKit

/// Writes an archive of `format` at `path` through `body`, then finishes it.
func writeArchive(at path: String, format: ArchiveWriteFormat, _ body: (ArchiveWriter) throws -> Void) throws {
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    #expect(fd >= 0, "cannot create \(path)")
    defer { close(fd) }
    let writer = try ArchiveWriter(fileDescriptor: fd, path: path, format: format)
    try body(writer)
    try writer.finish()
}

/// Reads every entry of the archive at `path`, with the data of regular files.
func readArchive(at path: String, limits: ArchiveLimits = .default) throws -> [(ArchiveEntryInfo, Data)] {
    let reader = try ArchiveReader(path: path, limits: limits)
    var entries: [(ArchiveEntryInfo, Data)] = []
    while let entry = try reader.nextEntry() {
        entries.append((entry, entry.kind == .regular ? try reader.readData(limit: 1 << 30) : Data()))
    }
    return entries
}

@Suite struct ArchiveWriterTests {
    static let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) })
    static let text = Data(String(repeating: "{\"name\": \"Übersicht\", \"done\": false}\n", count: 2000).utf8)

    static func writeFixture(_ format: ArchiveWriteFormat, in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("fixture.\(format.fileExtension)")
        try writeArchive(at: path, format: format) { writer in
            try writer.addDirectory(name: "Übersicht", modificationTime: 1_700_000_000)
            try writer.addFile(name: "Übersicht/日本語.txt", data: text, modificationTime: 1_700_000_000)
            try writer.addFile(name: "payload.bin", data: payload, mode: 0o600, compression: .store)
            try writer.addFile(name: "empty", data: Data())
        }
        return path
    }

    static let utf8Environment = TestEnvironment.clean(adding: ["LC_ALL": "C.UTF-8"])

    @Test(arguments: ArchiveWriteFormat.allCases)
    func roundTripsThroughArchiveReader(format: ArchiveWriteFormat) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeFixture(format, in: directory)
        let entries = try readArchive(at: path)
        #expect(entries.map(\.0.name) == ["Übersicht", "Übersicht/日本語.txt", "payload.bin", "empty"])
        #expect(entries.map(\.0.kind) == [.directory, .regular, .regular, .regular])
        #expect(entries[1].1 == Self.text)
        #expect(entries[2].1 == Self.payload)
        #expect(entries[2].0.mode == 0o600)
        #expect(entries[3].1.isEmpty)
        if format != .zip { #expect(entries[1].0.modificationTime == 1_700_000_000) }
        let reader = try ArchiveReader(path: path)
        _ = try reader.nextEntry()
        #expect(reader.formatName.contains(format == .zip ? "ZIP" : "pax"), "\(reader.formatName)")
    }

    @Test(
        .enabled(if: ExternalTool.bsdtar.isAvailable, "bsdtar is not installed"), arguments: ArchiveWriteFormat.allCases
    )
    func bsdtarReadsEveryFormat(format: ArchiveWriteFormat) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeFixture(format, in: directory)
        let list = try ExternalTool.bsdtar.run(["-tf", path], environment: Self.utf8Environment)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.output.split(separator: "\n") == ["Übersicht/", "Übersicht/日本語.txt", "payload.bin", "empty"])
        let extract = try ExternalTool.bsdtar.run(
            ["-xOf", path, "Übersicht/日本語.txt"], environment: Self.utf8Environment)
        #expect(extract.status == 0, "\(extract.standardError)")
        #expect(extract.standardOutput == Self.text)
    }

    @Test(.enabled(if: ExternalTool.unzip.isAvailable, "unzip is not installed"))
    func unzipTestsTheZip() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeFixture(.zip, in: directory)
        let test = try ExternalTool.unzip.run(["-t", path], environment: Self.utf8Environment)
        #expect(test.status == 0, "\(test.output)\(test.standardError)")
        // A name argument in UTF-8 matches only in a UTF-8 locale.
        let print = try ExternalTool.unzip.run(["-p", path, "Übersicht/日本語.txt"], environment: Self.utf8Environment)
        #expect(print.standardOutput == Self.text)
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable, "python3 is not installed"))
    func pythonReadsTheZipAndTheTars() throws {
        let directory = try TemporaryDirectory()
        let zip = try Self.writeFixture(.zip, in: directory)
        let zipResult = try ExternalTool.python(
            """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print([(i.filename, i.compress_type, i.flag_bits & 0x800) for i in z.infolist()])
            # No time given: 1980-01-01 in the DOS fields, no time in the UT extra field (flags 0).
            p = z.getinfo('payload.bin')
            assert p.date_time == (1980, 1, 1, 0, 0, 0), p.date_time
            assert p.extra.startswith(bytes.fromhex('5554010000')), p.extra.hex()
            """, [zip])
        #expect(zipResult.status == 0, "\(zipResult.standardError)")
        #expect(zipResult.output.contains("('Übersicht/日本語.txt', 8, 2048)"), "\(zipResult.output)")
        #expect(zipResult.output.contains("('payload.bin', 0, 0)"), "\(zipResult.output)")
        for format in [ArchiveWriteFormat.tar, .tarGzip, .tarXz] {
            let path = try Self.writeFixture(format, in: directory)
            let result = try ExternalTool.python(
                """
                import sys, tarfile
                with tarfile.open(sys.argv[1]) as t:
                    for m in t.getmembers():
                        print(m.name, m.size, oct(m.mode), m.uid, m.gid, repr(m.uname), m.mtime)
                """, [path])
            #expect(result.status == 0, "\(format): \(result.standardError)")
            #expect(
                result.output.contains("Übersicht/日本語.txt \(Self.text.count) 0o644 0 0 '' 1700000000"),
                "\(result.output)")
            #expect(result.output.contains("empty 0 0o644 0 0 '' 0"), "\(result.output)")
        }
    }

    @Test func refusesBodiesThatWriteTooMuchOrTooLittle() throws {
        let directory = try TemporaryDirectory()
        for format in [ArchiveWriteFormat.zip, .tar] {
            let fd = open(directory.path("a.\(format)"), O_RDWR | O_CREAT | O_EXCL, 0o644)
            defer { close(fd) }
            let writer = try ArchiveWriter(fileDescriptor: fd, path: "a", format: format)
            expectArchiveError(.limitExceeded) {
                try writer.addFile(name: "a", size: 2) { sink in try sink.write(Data("abc".utf8)) }
            }
            expectArchiveError(.closed) { try writer.finish() }

            let fd2 = open(directory.path("b.\(format)"), O_RDWR | O_CREAT | O_EXCL, 0o644)
            defer { close(fd2) }
            let writer2 = try ArchiveWriter(fileDescriptor: fd2, path: "b", format: format)
            expectArchiveError(.truncated) {
                try writer2.addFile(name: "a", size: 4) { sink in try sink.write(Data("abc".utf8)) }
            }
        }
    }

    @Test func refusesUnsafeAndDuplicateNames() throws {
        let directory = try TemporaryDirectory()
        let fd = open(directory.path("a.tar"), O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        let writer = try ArchiveWriter(fileDescriptor: fd, path: "a.tar", format: .tar)
        expectArchiveError(.unsafeEntry) { try writer.addFile(name: "/etc/passwd", data: Data()) }
        expectArchiveError(.unsafeEntry) { try writer.addDirectory(name: "a/") }
        try writer.addDirectory(name: "Dir")
        expectArchiveError(.duplicateEntry) { try writer.addFile(name: "dir", data: Data()) }
        try writer.finish()
    }

    @Test func anUnfinishedWriterWritesNothingMoreWhenReleased() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("unfinished.zip")
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o644)
        defer { close(fd) }
        do {
            let writer = try ArchiveWriter(fileDescriptor: fd, path: path, format: .zip)
            try writer.addFile(name: "a", data: Data("x".utf8), compression: .store)
        }
        let size = try bytes(ofFile: path).count
        // The zip's central directory (written only by finish) must not appear.
        #expect(try !bytes(ofFile: path).contains(Data([0x50, 0x4B, 0x01, 0x02])), "\(size) bytes")
    }
}
