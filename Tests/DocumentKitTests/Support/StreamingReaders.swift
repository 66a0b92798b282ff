import Foundation
import Testing

@testable import DocumentKit

/// Readers that get a bundle through a pipe and walk its local headers from the start,
/// as `cat B | bsdtar -xOf - document.json` does, instead of reading its central directory.
enum StreamingReaders {
    /// `cat FILE | bsdtar ARGUMENTS`: libarchive's streaming zip reader on a real pipe
    /// (`arguments` name `-f -`).
    static func bsdtar(_ arguments: [String], piping url: URL) throws -> ExternalTool.Result {
        try ExternalTool(name: "sh").run(
            ["-c", #"file="$1"; shift; cat "$file" | bsdtar "$@""#, "sh", url.path] + arguments)
    }

    /// `cat FILE | python3 -c SCRIPT`: the script reads the bundle from a pipe.
    static func python(_ script: String, piping url: URL) throws -> ExternalTool.Result {
        try ExternalTool(name: "sh").run(["-c", #"cat "$1" | python3 -c "$2""#, "sh", url.path, script])
    }

    /// What the local header walker found: every entry's name in file order, the data of
    /// each entry named `document.json`, and the offset where it stopped (the first bytes
    /// that are no local header: the live central directory).
    struct Walk: Decodable {
        var names: [String]
        var documents: [String]
        var stoppedAt: UInt64
        var documentData: [Data] { documents.map { Data(hexString: $0) } }
    }

    /// A reader of local headers (APPNOTE 4.3.7) over a stream it cannot seek, written from
    /// APPNOTE alone: it checks each entry's CRC-32 and knows nothing of `.stale/`.
    static let walker = """
        import json, struct, sys, zlib
        stream, names, documents, offset = sys.stdin.buffer, [], [], 0
        while True:
            header = stream.read(30)
            if header[:4] != b"PK\\x03\\x04":
                break
            _, _, flags, method, _, _, crc, size, _, name_length, extra_length = struct.unpack("<IHHHHHIIIHH", header)
            name = stream.read(name_length).decode()
            extra = stream.read(extra_length)
            if size == 0xFFFFFFFF:
                size = struct.unpack("<Q", extra[12:20])[0]
            data = stream.read(size)
            assert method == 0 and flags & 8 == 0 and zlib.crc32(data) == crc, name
            names.append(name)
            if name == "document.json":
                documents.append(data.hex())
            offset += 30 + name_length + extra_length + size
        json.dump({"names": names, "documents": documents, "stoppedAt": offset}, sys.stdout)
        """

    /// Runs ``walker`` over the bundle at `url`, through a pipe.
    static func walk(_ url: URL) throws -> Walk {
        let result = try python(walker, piping: url)
        #expect(result.status == 0, "\(result.standardError)")
        return try JSONDecoder().decode(Walk.self, from: result.standardOutput)
    }
}

/// Comparing a bundle before and after a save in place.
enum SweptAppend {
    /// Checks that `after` is `before` with a save appended in place and swept: the bytes of
    /// every entry the new central directory keeps are where they were, unchanged; the only
    /// changed bytes before the old end are the names of the superseded entries' local
    /// headers, now in `.stale/`, the first bytes of the old central directory, now the
    /// local header of `.stale/directory`, and the free slot the old manifest named, when
    /// the new `document.json` was written into it.
    static func expectSwept(
        before: Data, after url: URL, in directory: TemporaryDirectory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let copy = directory.url.appendingPathComponent("before-\(UUID().uuidString).zip")
        try before.write(to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        let old = try StoredZipReader(path: copy.path)
        let new = try StoredZipReader(path: url.path)
        let after = try Data(contentsOf: url)
        #expect(after.count > before.count, "the save appended", sourceLocation: sourceLocation)
        let kept = Set(new.entries.map(\.localHeaderOffset))
        var changed: [Range<Int>] = [
            Int(old.centralDirectoryOffset)..<Int(old.centralDirectoryOffset) + 30
                + StoredZip.supersededDirectoryName.count
        ]
        for entry in old.entries where !kept.contains(entry.localHeaderOffset) {
            let name = Int(entry.localHeaderOffset) + 30..<Int(entry.localHeaderOffset) + 30 + entry.name.utf8.count
            #expect(
                Array(after[name]) == StoredZip.staleName(length: entry.name.utf8.count), "\(entry.name) is renamed",
                sourceLocation: sourceLocation)
            changed.append(name)
        }
        #expect(
            after[changed[0]].starts(with: [0x50, 0x4B, 0x03, 0x04]), "the old directory is covered",
            sourceLocation: sourceLocation)
        if let document = new.entry(named: BundleEntry.document), document.localHeaderOffset < old.length,
            document.localHeaderOffset != old.entry(named: BundleEntry.document)?.localHeaderOffset
        {
            // Written into the free slot the old manifest named (FORMAT.md §12.4).
            let manifest = try HistoryManifest.decode(try old.readData(try #require(old.entry(named: "manifest.json"))))
            let slot = try #require(manifest.freeSlotRange, sourceLocation: sourceLocation)
            #expect(document.localHeaderOffset == slot.lowerBound, sourceLocation: sourceLocation)
            #expect(document.dataEnd <= slot.upperBound, sourceLocation: sourceLocation)
            changed.append(Int(slot.lowerBound)..<Int(slot.upperBound))
        }
        var position = 0
        for range in changed.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            #expect(
                after[position..<range.lowerBound] == before[position..<range.lowerBound],
                "bytes \(position)..<\(range.lowerBound) are unchanged", sourceLocation: sourceLocation)
            position = range.upperBound
        }
        #expect(
            after[position..<before.count] == before[position...], "the old end records are unchanged",
            sourceLocation: sourceLocation)
    }
}

extension Data {
    /// The bytes a string of hex digits spells.
    init(hexString: String) {
        var bytes: [UInt8] = []
        var index = hexString.startIndex
        while let next = hexString.index(index, offsetBy: 2, limitedBy: hexString.endIndex), index < hexString.endIndex
        {
            bytes.append(UInt8(hexString[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}
