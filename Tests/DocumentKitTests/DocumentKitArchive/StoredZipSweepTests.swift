import Foundation
import Testing

@testable import DocumentKit

/// The sweep after a save in place (FORMAT.md §8, step A5): superseded local headers get
/// names in `.stale/`, the old central directory becomes one stored entry, readers that
/// read the old directory go on reading, and the next append finds a sweep cut short.
@Suite struct StoredZipSweepTests {
    /// A zip of four entries, then an append that keeps `mimetype` and `objects/aa` and
    /// writes `document.json` and `manifest.json` anew: what a save in place does.
    private struct Appended {
        let path: String
        /// The zip before the append, opened before it.
        let old: StoredZipReader
        /// The zip after it.
        let new: StoredZipReader
        var region: StoredZipSupersededRegion
    }

    private func appended(in directory: TemporaryDirectory, forcesZip64: Bool = false) throws -> Appended {
        let path = directory.path("a.zip")
        try writeStoredZip(at: path, forcesZip64: forcesZip64) { writer in
            try writer.addEntry(name: "mimetype", data: Data("x/y".utf8))
            try writer.addEntry(name: "document.json", data: Data(#"{"v":1}"#.utf8))
            try writer.addEntry(name: "objects/aa", data: Data(repeating: 7, count: 1_000))
            try writer.addEntry(name: "manifest.json", data: Data(#"{"head":1}"#.utf8))
        }
        let old = try StoredZipReader(path: path)
        let fd = open(path, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        let writer = StoredZipWriter(appendingTo: fd, path: path, at: old.length)
        try writer.keepEntry(try #require(old.entry(named: "mimetype")))
        try writer.addEntry(name: "document.json", data: Data(#"{"v":2}"#.utf8))
        try writer.keepEntry(try #require(old.entry(named: "objects/aa")))
        try writer.addEntry(name: "manifest.json", data: Data(#"{"head":2}"#.utf8))
        try writer.finish()
        let superseded = old.entries.filter { !writer.keptOffsets.contains($0.localHeaderOffset) }
        #expect(superseded.map(\.name) == ["document.json", "manifest.json"])
        return Appended(
            path: path, old: old, new: try StoredZipReader(path: path),
            region: StoredZipSupersededRegion(entries: superseded, directory: old.centralDirectoryOffset..<old.length))
    }

    private func sweep(_ zip: Appended, region: StoredZipSupersededRegion? = nil) throws -> Bool {
        let fd = open(zip.path, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        var flushes = 0
        let wrote = try StoredZipSweep.sweep(region ?? zip.region, in: fd, path: zip.path) { flushes += 1 }
        #expect(flushes <= 1)
        return wrote
    }

    @Test(arguments: [false, true])
    func aSweepHidesWhatTheAppendSupersededAndTouchesNothingLive(forcesZip64: Bool) throws {
        let directory = try TemporaryDirectory()
        let zip = try appended(in: directory, forcesZip64: forcesZip64)
        let before = try bytes(ofFile: zip.path)
        let oldDocument = try #require(zip.old.entry(named: "document.json"))
        #expect(
            try zip.new.staleRecords() == [
                .entry(name: "document.json", offset: oldDocument.localHeaderOffset),
                .entry(
                    name: "manifest.json", offset: try #require(zip.old.entry(named: "manifest.json")).localHeaderOffset
                ),
                .directory(offset: zip.old.centralDirectoryOffset)
            ])
        #expect(
            try StoredZipSweep.unfinishedRegion(before: zip.new, in: zip.new.fileDescriptor, path: zip.path)
                == zip.region)

        #expect(try sweep(zip))
        let after = try bytes(ofFile: zip.path)
        #expect(after.count == before.count)
        for entry in zip.new.entries {
            let range = Int(entry.localHeaderOffset)..<Int(entry.dataEnd)
            #expect(after[range] == before[range], "\(entry.name) is untouched")
            #expect(try zip.new.readData(entry).count == Int(entry.size))
        }
        #expect(try zip.new.staleRecords() == [])
        #expect(try StoredZipSweep.unfinishedRegion(before: zip.new, in: zip.new.fileDescriptor, path: zip.path) == nil)
        #expect(try !sweep(zip), "a second sweep writes nothing")
        #expect(try bytes(ofFile: zip.path) == after)

        // What a reader walking local headers from the start meets: the stale entries, the
        // directory's cover, then the new entries, then the live directory.
        var walked: [String] = []
        var offset: UInt64 = 0
        while let header = try StoredZipLocalHeader.read(
            from: zip.new.fileDescriptor, at: offset, limit: zip.new.centralDirectoryOffset, path: zip.path)
        {
            let data = after[Int(header.offset + header.headerSize)..<Int(header.end)]
            #expect(CRC32.checksum(data) == header.crc32, "\(String(decoding: header.name, as: UTF8.self))")
            walked.append(String(decoding: header.name, as: UTF8.self))
            offset = header.end
        }
        #expect(offset == zip.new.centralDirectoryOffset)
        #expect(
            walked == [
                "mimetype", ".stale/xxxxxx", "objects/aa", ".stale/xxxxxx", ".stale/directory", "document.json",
                "manifest.json"
            ])
    }

    @Test func aReaderOfTheOldDirectoryReadsOnAndOnlyTheStrictCheckRefusesTheStaleName() throws {
        let directory = try TemporaryDirectory()
        let zip = try appended(in: directory)
        _ = try sweep(zip)
        let document = try #require(zip.old.entry(named: "document.json"))
        #expect(try zip.old.readData(document) == Data(#"{"v":1}"#.utf8))
        try zip.old.verifyLocalHeader(document)
        let error = expectArchiveError(.malformed) { try zip.old.verifyLocalHeader(document, allowingStaleName: false) }
        #expect(
            error?.message.contains("a superseded entry's name, '.stale/xxxxxx'") == true,
            "\(String(describing: error))")
        // Another name of the same length is no stale name.
        let fd = open(zip.path, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        _ = Array(".stale/xxxxxy".utf8).withUnsafeBytes {
            pwrite(fd, $0.baseAddress, $0.count, off_t(document.localHeaderOffset + 30))
        }
        expectArchiveError(.malformed) { try zip.old.verifyLocalHeader(document) }
    }

    @Test func theNextAppendFindsASweepCutShortBeforeTheDirectoryWasCovered() throws {
        let directory = try TemporaryDirectory()
        let zip = try appended(in: directory)
        // Killed after renaming the document only: the directory still says what to rename.
        var partial = zip.region
        partial.entries.removeLast()
        partial.directory = partial.directory.lowerBound..<partial.directory.lowerBound
        let fd = open(zip.path, O_RDWR | O_CLOEXEC)
        defer { close(fd) }
        #expect(try StoredZipSweep.sweep(partial, in: fd, path: zip.path) {})
        #expect(
            try zip.new.staleRecords() == [
                .entry(
                    name: "manifest.json", offset: try #require(zip.old.entry(named: "manifest.json")).localHeaderOffset
                ),
                .directory(offset: zip.old.centralDirectoryOffset)
            ])
        let found = try #require(try StoredZipSweep.unfinishedRegion(before: zip.new, in: fd, path: zip.path))
        #expect(found == zip.region)
        #expect(try StoredZipSweep.sweep(found, in: fd, path: zip.path) {})
        #expect(try zip.new.staleRecords() == [])
    }

    @Test func aZipWrittenInOneGoHasNothingToFinish() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("a.zip")
        try writeStoredZip(at: path) { writer in
            try writer.addEntry(name: "mimetype", data: Data("x/y".utf8))
            try writer.addEntry(name: "document.json", data: Data("{}".utf8))
        }
        let reader = try StoredZipReader(path: path)
        #expect(try StoredZipSweep.unfinishedRegion(before: reader, in: reader.fileDescriptor, path: path) == nil)
        #expect(try reader.staleRecords() == [])
    }

    @Test func staleNamesKeepTheirLengthAndNeedRoomForTheFolder() {
        #expect(StoredZip.staleName(length: 13) == Array(".stale/xxxxxx".utf8))
        #expect(StoredZip.staleName(length: 8) == Array(".stale/x".utf8))
        #expect(StoredZip.staleName(length: 7) == nil)
        #expect(StoredZip.isStale(Array(".stale/directory".utf8)) && !StoredZip.isStale(Array("document.json".utf8)))
        // A region of 4 GiB or more is covered by a header with the zip64 extra field.
        #expect(StoredZip.coveredDataSize(nameLength: 16, regionSize: 68) == 22)
        #expect(StoredZip.coveredDataSize(nameLength: 16, regionSize: 45) == nil)
        let huge: UInt64 = 5 << 30
        #expect(StoredZip.coveredDataSize(nameLength: 16, regionSize: huge) == huge - 66)
        #expect(
            StoredZip.coveringHeader(name: StoredZip.supersededDirectoryName, regionSize: huge, at: 0, crc32: 0)?.count
                == 66)
    }
}
