import Foundation
import Testing

@testable import DocumentKit

/// Foreign archives, hostile or damaged: ``ArchiveReader`` refuses each with the right kind.
@Suite struct ArchiveReaderTests {
    static let python = ExternalTool.python3.isAvailable
    static let bsdtar = ExternalTool.bsdtar.isAvailable

    /// Collects entries until the end, or the first error.
    func entries(of path: String, limits: ArchiveLimits = .default) throws -> [ArchiveEntryInfo] {
        let reader = try ArchiveReader(path: path, limits: limits)
        var entries: [ArchiveEntryInfo] = []
        while let entry = try reader.nextEntry() {
            entries.append(entry)
            try reader.readData { _ in }
        }
        return entries
    }

    @Test func refusesFilesThatAreNotZipOrTar() throws {
        let directory = try TemporaryDirectory()
        var generator = SeededRandom(seed: 0xD0C5)
        let samples: [(String, Data)] = [
            ("empty", Data()),
            ("random", Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })),
            ("7z", Data([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0x00, 0x04]) + Data(repeating: 0x41, count: 600)),
            ("rar", Data("Rar!\u{1A}\u{07}\u{01}\u{00}".utf8) + Data(repeating: 0x42, count: 600)),
            ("text", Data(String(repeating: "just some text\n", count: 100).utf8))
        ]
        for (name, data) in samples {
            let path = directory.path(name)
            try writeBytes(data, to: path)
            let error = expectArchiveError(.notAnArchive) { _ = try entries(of: path) }
            #expect(error?.path == path)
            if name != "empty" { #expect(error?.message == "not a zip or tar archive", "\(name)") }
        }
        expectSystemError(ENOENT) { _ = try ArchiveReader(path: directory.path("missing")) }
        expectArchiveError(.notAnArchive) { _ = try ArchiveReader(path: directory.url.path) }
    }

    @Test(.enabled(if: bsdtar, "bsdtar is not installed"), arguments: ["cpio", "newc", "iso9660", "7zip", "ar", "shar"])
    func refusesOtherFormatsMadeByBsdtar(format: String) throws {
        let directory = try TemporaryDirectory()
        try writeBytes(Data(String(repeating: "content ", count: 100).utf8), to: directory.path("file.txt"))
        let path = directory.path("archive.\(format)")
        let made = try ExternalTool.bsdtar.run(["--format", format, "-cf", path, "-C", directory.url.path, "file.txt"])
        try #require(made.status == 0, "\(made.standardError)")
        expectArchiveError(.notAnArchive) { _ = try entries(of: path) }
    }

    @Test func acceptsEmptyArchives() throws {
        let directory = try TemporaryDirectory()
        let tar = directory.path("empty.tar")
        try writeBytes(Data(count: 10_240), to: tar)
        #expect(try entries(of: tar).isEmpty)
        let zip = directory.path("empty.zip")
        try writeStoredZip(at: zip) { _ in }
        #expect(try entries(of: zip).isEmpty)
        for format in [ArchiveWriteFormat.tarGzip, .tarXz, .tarZstd] {
            let path = directory.path("empty.\(format.fileExtension)")
            try writeArchive(at: path, format: format) { _ in }
            #expect(try entries(of: path).isEmpty, "\(format)")
        }
    }

    @Test func reportsUnsafeNamesAndCanSkipThem() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("evil.zip")
        try writeBytes(
            RawZip.build([
                RawZip.Entry("ok.txt", "1"), RawZip.Entry("../evil", "2"), RawZip.Entry("/etc/passwd", "3"),
                RawZip.Entry("dir/a\\b", "4"), RawZip.Entry("..\\evil", "5"),
                RawZip.Entry(bytes: [0x62, 0xFF], Array("6".utf8)),
                RawZip.Entry("last.txt", "7")
            ]), to: path)
        let reader = try ArchiveReader(path: path)
        #expect(try reader.nextEntry()?.name == "ok.txt")
        // libarchive turns the backslashes of a name without slashes into slashes (as
        // Windows tools write them): "..\evil" arrives as "../evil".
        for expected in ["../evil", "/etc/passwd", "dir/a\\b", "../evil", nil] {
            // An ENOMEM left by an earlier call on this thread is not taken for libarchive's
            // own: the name that is not UTF-8 (the last) is refused, not the archive.
            errno = ENOMEM
            let error = expectArchiveError(.unsafeEntry) { _ = try reader.nextEntry() }
            if let expected { #expect(error?.entry == expected) }
            #expect(error?.path == path)
        }
        // The caller decided to skip them: reading goes on.
        #expect(try reader.nextEntry()?.name == "last.txt")
        #expect(try reader.readData(limit: 10) == Data("7".utf8))
        #expect(try reader.nextEntry() == nil)
    }

    @Test(arguments: [("a.txt", "a.txt"), ("A.txt", "a.txt"), ("\u{E9}", "e\u{301}")])
    func reportsCollidingNames(_ first: String, _ second: String) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("dup.zip")
        try writeBytes(RawZip.build([RawZip.Entry(first, "1"), RawZip.Entry(second, "2")]), to: path)
        let error = expectArchiveError(.duplicateEntry) { _ = try entries(of: path) }
        #expect(error?.entry == second)
    }

    @Test(.enabled(if: python, "python3 is not installed"))
    func reportsHostileTarEntries() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("evil.tar")
        let made = try ExternalTool.python(
            """
            import sys, tarfile, io
            with tarfile.open(sys.argv[1], 'w', format=tarfile.PAX_FORMAT) as t:
                def add(name, data=b'', **kw):
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    for k, v in kw.items(): setattr(info, k, v)
                    t.addfile(info, io.BytesIO(data))
                add('./dir/', type=tarfile.DIRTYPE)
                add('./dir/ok.txt', b'fine')
                add('link', type=tarfile.SYMTYPE, linkname='../../etc/passwd')
                add('../evil', b'x')
                add('hard', type=tarfile.LNKTYPE, linkname='../outside')
                add('last', b'end')
            """, [path])
        try #require(made.status == 0, "\(made.standardError)")
        let reader = try ArchiveReader(path: path)
        #expect(
            try reader.nextEntry()
                == ArchiveEntryInfo(name: "dir", kind: .directory, size: 0, mode: 0o644, modificationTime: 0))
        #expect(try reader.nextEntry()?.name == "dir/ok.txt")
        #expect(try reader.readData(limit: 100) == Data("fine".utf8))
        // Symbolic links are reported with their target; the extractor decides.
        let link = try reader.nextEntry()
        #expect(link?.kind == .symbolicLink)
        #expect(link?.symlinkTarget == "../../etc/passwd")
        expectArchiveError(.unsafeEntry) { _ = try reader.nextEntry() }
        let hard = expectArchiveError(.unsafeEntry) { _ = try reader.nextEntry() }
        #expect(hard?.entry == "hard")
        #expect(try reader.nextEntry()?.name == "last")
        #expect(try reader.nextEntry() == nil)
    }

    @Test(.enabled(if: python, "python3 is not installed"))
    func reportsNamesThatAreNotUTF8() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("latin1.tar")
        let made = try ExternalTool.python(
            """
            import sys, tarfile, io
            with tarfile.open(sys.argv[1], 'w', format=tarfile.GNU_FORMAT, encoding='latin-1') as t:
                info = tarfile.TarInfo('caf\\u00e9.txt')
                info.size = 1
                t.addfile(info, io.BytesIO(b'x'))
            """, [path])
        try #require(made.status == 0, "\(made.standardError)")
        expectArchiveError(.unsafeEntry) { _ = try entries(of: path) }
    }

    @Test func detectsABadCRC() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("damaged.zip")
        try writeStoredZip(at: path) { try $0.addEntry(name: "a.txt", data: Data("hello, world".utf8)) }
        var bytes = try bytes(ofFile: path)
        bytes[30 + 5 + 3] ^= 0x01
        try writeBytes(bytes, to: path)
        let reader = try ArchiveReader(path: path)
        #expect(try reader.nextEntry()?.name == "a.txt")
        let error = expectArchiveError(.checksumMismatch) { try reader.readData { _ in } }
        #expect(error?.entry == "a.txt")
    }

    @Test func detectsALocalHeaderThatDisagreesWithTheCentralDirectory() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("disagree.zip")
        var entry = RawZip.Entry("a.txt", "hello")
        entry.localCRC32 = 0x1234_5678
        try writeBytes(RawZip.build([entry]), to: path)
        expectArchiveError(.malformed) { _ = try entries(of: path) }
    }

    @Test(arguments: [ArchiveWriteFormat.tar, .tarGzip, .tarXz, .tarZstd])
    func refusesTruncatedTars(format: ArchiveWriteFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("whole.\(format.fileExtension)")
        let random = Data((0..<300_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 9) })
        try writeArchive(at: path, format: format) { writer in
            try writer.addFile(name: "a.bin", data: random)
            try writer.addFile(name: "b.txt", data: Data("b".utf8))
        }
        let whole = try bytes(ofFile: path)
        for fraction in [0.3, 0.6, 0.9] {
            let cut = directory.path("cut-\(fraction).\(format.fileExtension)")
            try writeBytes(whole.prefix(Int(Double(whole.count) * fraction)), to: cut)
            let error = expectArchiveError(.truncated) { _ = try entries(of: cut) }
            #expect(error?.path == cut)
        }
    }

    @Test func enforcesEntryCountAndByteLimits() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("five.tar")
        try writeArchive(at: path, format: .tar) { writer in
            for index in 0..<5 { try writer.addFile(name: "f\(index)", data: Data(repeating: 1, count: 1000)) }
        }
        #expect(try entries(of: path).count == 5)
        expectArchiveError(.limitExceeded) { _ = try entries(of: path, limits: ArchiveLimits(maxEntries: 4)) }
        expectArchiveError(.limitExceeded) { _ = try entries(of: path, limits: ArchiveLimits(maxEntryBytes: 999)) }
        expectArchiveError(.limitExceeded) { _ = try entries(of: path, limits: ArchiveLimits(maxTotalBytes: 4999)) }
        let reader = try ArchiveReader(path: path)
        _ = try reader.nextEntry()
        expectArchiveError(.limitExceeded) { _ = try reader.readData(limit: 999) }
    }

    @Test(.enabled(if: python, "python3 is not installed"))
    func stopsAZipBombEarly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bomb.zip")
        let made = try ExternalTool.python(
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as z:
                with z.open('zeros', 'w', force_zip64=True) as f:
                    chunk = bytes(1 << 20)
                    for _ in range(200): f.write(chunk)
            """, [path])
        try #require(made.status == 0, "\(made.standardError)")
        let compressed = try bytes(ofFile: path).count
        #expect(compressed < 400_000)
        for limits in [ArchiveLimits(maxEntryBytes: 10_000_000), ArchiveLimits(maxExpansionRatio: 100), .default] {
            let reader = try ArchiveReader(path: path, limits: limits)
            #expect(try reader.nextEntry()?.name == "zeros")
            var delivered = 0
            let started = Date()
            let error = expectArchiveError(.limitExceeded) { try reader.readData { delivered += $0.count } }
            #expect(error?.entry == "zeros")
            // Stopped at the limit, having held at most one block at a time.
            let bound =
                limits.maxEntryBytes < 1 << 30
                ? Int(limits.maxEntryBytes) : Int(limits.maxExpandedBytes(fromCompressed: UInt64(compressed)))
            #expect(delivered <= bound)
            #expect(Date().timeIntervalSince(started) < 10)
        }
    }

    @Test func stopsCompressedTarBombsByRatio() throws {
        let directory = try TemporaryDirectory()
        for format in [ArchiveWriteFormat.tarXz, .tarZstd, .tarGzip] {
            let path = directory.path("bomb.\(format.fileExtension)")
            let zeros = Data(count: 1 << 20)
            try writeArchive(at: path, format: format) { writer in
                try writer.addFile(name: "zeros", size: 64 << 20) { sink in
                    for _ in 0..<64 { try sink.write(zeros) }
                }
            }
            let reader = try ArchiveReader(path: path, limits: ArchiveLimits(maxExpansionRatio: 100))
            #expect(try reader.nextEntry()?.name == "zeros")
            expectArchiveError(.limitExceeded) { try reader.readData { _ in } }
        }
    }
}
