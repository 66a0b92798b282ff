import Foundation
import Testing

@testable import DocumentKit

/// Stored zips written by ``StoredZipWriter`` open in the tools people already have:
/// Info-ZIP's unzip, libarchive's bsdtar and Python's zipfile, run as real processes.
@Suite struct StoredZipInteropTests {
    static let fixture: [(name: String, data: Data)] = [
        ("mimetype", Data("application/vnd.documentkit+zip".utf8)),
        ("empty", Data()),
        ("Übersicht/日本語.txt", Data("こんにちは\n".utf8)),
        ("objects/ab/cdef", Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 8) }))
    ]

    /// Writes the fixture, plain or with every zip64 field forced on.
    static func writeFixture(in directory: TemporaryDirectory, forcesZip64: Bool = false) throws -> String {
        let path = directory.path(forcesZip64 ? "fixture64.zip" : "fixture.zip")
        try writeStoredZip(at: path, forcesZip64: forcesZip64) { writer in
            for (name, data) in fixture { try writer.addEntry(name: name, data: data) }
        }
        return path
    }

    @Test(.enabled(if: ExternalTool.unzip.isAvailable, "unzip is not installed"), arguments: [false, true])
    func unzipTestsAndPrintsEntries(forcesZip64: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeFixture(in: directory, forcesZip64: forcesZip64)
        // Names in UTF-8 match only in a UTF-8 locale.
        let utf8 = TestEnvironment.clean(adding: ["LC_ALL": "C.UTF-8"])
        let test = try ExternalTool.unzip.run(["-t", path], environment: utf8)
        #expect(test.status == 0, "\(test.output)\(test.standardError)")
        #expect(test.output.contains("No errors detected"))
        for (name, data) in Self.fixture {
            let print = try ExternalTool.unzip.run(["-p", path, name], environment: utf8)
            #expect(print.status == 0, "\(name): \(print.standardError)")
            #expect(print.standardOutput == data, "\(name)")
        }
    }

    @Test(.enabled(if: ExternalTool.bsdtar.isAvailable, "bsdtar is not installed"), arguments: [false, true])
    func bsdtarListsAndExtractsEntries(forcesZip64: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeFixture(in: directory, forcesZip64: forcesZip64)
        let utf8 = TestEnvironment.clean(adding: ["LC_ALL": "C.UTF-8"])
        let list = try ExternalTool.bsdtar.run(["-tf", path], environment: utf8)
        #expect(list.status == 0, "\(list.standardError)")
        #expect(list.output.split(separator: "\n").map(String.init) == Self.fixture.map(\.name))
        let verbose = try ExternalTool.bsdtar.run(["-tvf", path], environment: utf8)
        #expect(verbose.status == 0, "\(verbose.standardError)")
        #expect(verbose.output.hasPrefix("-rw-r--r--"))
        for (name, data) in Self.fixture {
            let extract = try ExternalTool.bsdtar.run(["-xOf", path, name], environment: utf8)
            #expect(extract.status == 0, "\(name): \(extract.standardError)")
            #expect(extract.standardOutput == data, "\(name)")
        }
    }

    @Test(.enabled(if: ExternalTool.python3.isAvailable, "python3 is not installed"), arguments: [false, true])
    func pythonZipfileTestsAndReadsEntries(forcesZip64: Bool) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.writeFixture(in: directory, forcesZip64: forcesZip64)
        let script = """
            import sys, zipfile, json, hashlib
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                out = []
                for i in z.infolist():
                    out.append(dict(name=i.filename, flags=i.flag_bits, method=i.compress_type,
                        date=list(i.date_time), system=i.create_system, mode=i.external_attr >> 16,
                        size=i.file_size, sha=hashlib.sha256(z.read(i)).hexdigest(),
                        extra=i.extra.hex()))
                print(json.dumps(out))
            """
        let result = try ExternalTool.python(script, [path])
        #expect(result.status == 0, "\(result.standardError)")
        struct Info: Decodable {
            var name: String, flags: Int, method: Int, date: [Int], system: Int, mode: Int, size: Int, sha: String,
                extra: String
        }
        let infos = try JSONDecoder().decode([Info].self, from: result.standardOutput)
        #expect(infos.map(\.name) == Self.fixture.map(\.name))
        for (info, (_, data)) in zip(infos, Self.fixture) {
            #expect(info.flags == 0x0800)
            #expect(info.method == 0)
            #expect(info.date == [1980, 1, 1, 0, 0, 0])
            #expect(info.system == 3)
            #expect(info.mode == 0o100644)
            #expect(info.size == data.count)
            #expect(info.extra.isEmpty == !forcesZip64, "extra \(info.extra)")
        }
    }

    @Test func ownReaderReadsTheFixture() throws {
        let directory = try TemporaryDirectory()
        for forcesZip64 in [false, true] {
            let reader = try StoredZipReader(path: try Self.writeFixture(in: directory, forcesZip64: forcesZip64))
            #expect(reader.entries.map(\.name) == Self.fixture.map(\.name))
            for (index, (name, data)) in Self.fixture.enumerated() {
                let entry = try #require(reader.entry(named: name))
                #expect(entry.index == index)
                try reader.verifyLocalHeader(entry)
                #expect(try reader.readData(entry) == data)
            }
        }
    }
}
