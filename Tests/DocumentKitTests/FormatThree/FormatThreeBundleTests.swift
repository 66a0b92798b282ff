import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// Format-3 bundles (FORMAT.md §12) through docctl and the tools that read zips: saves
/// append what they add, every version reads back, and older formats upgrade on a save.
@Suite struct FormatThreeBundleTests {
    @Test func aSaveAppendsItsVersionAndOrdinaryToolsReadTheBundle() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(at: directory.url.appendingPathComponent("p.dkproj"), saves: 29)
        // A 1 MB blob, stored alone: appending is then the cheaper way to save.
        try Fixtures.write(Fixtures.noise(1_000_000), to: "big.bin", in: directory.url)
        #expect(try Run.docctl(["attach", "p.dkproj", "big.bin"], in: directory.url).status == 0)
        #expect(
            try DocumentBundle(contentsOf: url).storedObject(ObjectDigest.of(Fixtures.noise(1_000_000))).entry != nil)
        let before = try Data(contentsOf: url)
        let set = try Run.docctl(["set", "p.dkproj", "name", "Appended"], in: directory.url)
        #expect(set.status == 0, "\(set.standardError)")
        let after = try Data(contentsOf: url)
        // The document (about 9 KB), the new segment (its version, and the versions of the
        // segments it merged with), the manifest, the directory: nothing else.
        let written = try StoredZipReader(path: url.path).entries.filter {
            $0.localHeaderOffset >= UInt64(before.count)
        }
        #expect(
            Set(written.map(\.name)).subtracting([BundleEntry.document, BundleEntry.manifest]).allSatisfy {
                $0.hasPrefix("history/")
            }, "\(written.map(\.name))")
        let segmentBytes = written.filter { $0.name.hasPrefix("history/") }.reduce(0) { $0 + Int($1.size) }
        let documentBytes = written.first { $0.name == BundleEntry.document }.map { Int($0.size) } ?? 0
        // And the room after the document, for the one after next (FORMAT.md §12.4).
        let room = Int(StoredZipSlot.room(forEntryOfSize: UInt64(documentBytes)))
        #expect(
            after.count - before.count < documentBytes + room + segmentBytes + 2_000,
            "grew by \(after.count - before.count), \(segmentBytes) of them segments")
        #expect(segmentBytes < 20_000, "\(segmentBytes) bytes of segments for 31 versions")
        // Every entry kept is where it was; the superseded ones are renamed into .stale/.
        try SweptAppend.expectSwept(before: before, after: url, in: directory)

        let bundle = try DocumentBundle(contentsOf: url)
        #expect(bundle.formatVersion == 3 && bundle.headVersion.number == 32)
        #expect(
            try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url).output
                == "p.dkproj: ok (32 versions, \(bundle.manifest.objects.count) objects, every digest checked)\n")
        let unzip = try ExternalTool(name: "unzip").run(["-p", url.path, "document.json"])
        #expect(unzip.output.contains("\"name\" : \"Appended\""))
        #expect(try ExternalTool(name: "unzip").run(["-tq", url.path]).status == 0)
        #expect(try ExternalTool(name: "bsdtar").run(["-xOf", url.path, "document.json"]).output == unzip.output)
        let python = try ExternalTool.python(
            """
            import json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            manifest = json.loads(z.read("manifest.json"))
            assert manifest["formatVersion"] == 3 and manifest["versions"] == 32, manifest
            assert [n for n in z.namelist() if n.startswith("history/")] == manifest["history"], z.namelist()
            print(z.read("document.json").decode(), end="")
            """, [url.path])
        #expect(python.status == 0, "\(python.standardError)")
        #expect(python.output == unzip.output)

        let log = try Run.docctl(["log", "p.dkproj", "--oneline"], in: directory.url)
        #expect(log.output.split(separator: "\n").count == 32)
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[1].title", "--version", "2"], in: directory.url).output
                == "Renamed in save 1\n")
    }

    @Test func everyOldVersionReadsBackThroughAShortChain() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 20, saves: 300)
        let bundle = try DocumentBundle(contentsOf: url)
        for number in [1, 2, 16, 17, 255, 256, 257, 300, 301] {
            let version = try bundle.version(named: "\(number)")
            let document = try JSONValue.parse(try bundle.documentData(of: version))
            let title = number == 1 ? nil : "Renamed in save \(number - 1)"
            if let title, case .object(let members) = document, case .array(let tasks)? = members["tasks"],
                case .object(let task) = tasks[(number - 1) % 20]
            {
                #expect(task["title"] == .string(title), "version \(number)")
            }
            // Following each delta's base back to a document stored whole takes no more
            // links than the checkpoints allow.
            var links = 0
            var digest = try bundle.documentDigest(of: version)
            while let base = try bundle.objectRecord(digest)?.base {
                links += 1
                digest = base
            }
            #expect(links <= HistoryPolicy.chainLength(ofDocument: number - 1), "version \(number): \(links) links")
        }
        // A few segments, each more than twice the next.
        let segments = try #require(bundle.history).segments
        #expect(segments.count <= 9, "\(segments.map(\.name))")
    }

    @Test func theFirstSaveOfAFormatTwoBundleUpgradesItAndKeepsEveryVersion() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("format-2/garden.dkproj", to: directory)
        let old = try DocumentBundle(contentsOf: url)
        #expect(old.formatVersion == 2)
        let versions = try old.manifest.versions
        let documents = try versions.map { try old.documentData(of: $0) }
        _ = try BundleEdits.set(
            .string("Upgraded"), at: try JSONPath(parsing: "name"), in: url, metadata: FormatThreeFixtures.metadata)

        let new = try DocumentBundle(contentsOf: url)
        #expect(new.formatVersion == 3)
        #expect(try new.manifest.versions.dropLast().map(\.id) == versions.map(\.id))
        for (version, document) in zip(versions, documents) {
            #expect(
                try new.documentData(of: try new.version(named: "\(version.number)")) == document,
                "version \(version.number)")
        }
        #expect(new.history?.manifest.chainOrigin == versions.count + 1)
        let validate = try Run.docctl(["validate", "--deep", "garden.dkproj"], in: directory.url)
        #expect(validate.status == 0, "\(validate.output)")
        // The next save adds to the upgraded bundle's history.
        let set = try Run.docctl(["set", "garden.dkproj", "name", "Again"], in: directory.url)
        #expect(set.status == 0)
        let again = try DocumentBundle(contentsOf: url)
        #expect(again.formatVersion == 3 && again.headVersion.number == versions.count + 2)
        #expect(try again.manifest.versions.prefix(versions.count).map(\.id) == versions.map(\.id))
    }

    /// Format 3 by default; format 2 when `--format-version 2` or the `format-version`
    /// setting asks (to exchange bundles with DocumentKit 0.3 and older), kept by the
    /// saves that follow; a format-3 bundle stays in format 3 whatever the setting.
    @Test func newAndImportWriteFormatThreeUnlessAskedForTwoAndRefuseALayoutTheyDoNotKnow() throws {
        let directory = try TemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": directory.path("config")]
        func docctl(_ arguments: [String]) throws -> ExternalTool.Result {
            try Run.docctl(arguments, in: directory.url, environment: environment)
        }
        func format(_ name: String) throws -> Int {
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent(name)).formatVersion
        }
        #expect(try docctl(["new", "n.dkproj"]).status == 0)
        #expect(try format("n.dkproj") == 3)
        try Fixtures.write(Data(#"{"name": "Imported", "tasks": []}"#.utf8), to: "d.json", in: directory.url)
        #expect(try docctl(["import", "d.json", "-o", "i.dkproj", "--format-version", "2"]).status == 0)
        #expect(try docctl(["info", "i.dkproj", "--json"]).output.contains(#""formatVersion" : 2"#))
        #expect(try docctl(["config", "set", "format-version", "2"]).status == 0)
        #expect(try docctl(["set", "i.dkproj", "name", "Still two"]).status == 0)
        #expect(try format("i.dkproj") == 2, "the setting keeps a format-2 bundle in format 2")
        #expect(try docctl(["new", "t.dkproj"]).status == 0)
        #expect(try format("t.dkproj") == 2)
        #expect(try docctl(["new", "o.dkproj", "--format-version", "3"]).status == 0)
        #expect(try format("o.dkproj") == 3, "the option wins over the setting")
        #expect(try docctl(["set", "n.dkproj", "name", "Still three"]).status == 0)
        #expect(try format("n.dkproj") == 3, "format 3 is never written back as 2")
        #expect(
            try docctl(["config", "set", "format-version", "4"]).standardError
                == "error: format-version: '4' is not a number from 2 to 3\n")
        let refused = try docctl(["new", "x.dkproj", "--format-version", "4"])
        #expect(
            refused.status == 64
                && refused.standardError == "error: --format-version must be 3 or 2 (see 'docctl new --help')\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path("x.dkproj")))
    }

    /// A member the format does not define, in a record a segment holds, is covered by
    /// neither the id (computed from the members the record text names) nor a signature:
    /// `validate` reports it, as it does in a format-2 manifest.
    @Test func aRecordMemberTheFormatDoesNotDefineIsCaughtInASegment() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 20, saves: 3)
        let head = try DocumentBundle(contentsOf: url).headVersion
        try FormatThreeFixtures.rewriteNewestSegment(of: url) { items in
            try items.map { item in
                guard case .version(let id, let record) = item, id == head.id,
                    case .object(var members) = try JSONValue.parse(record)
                else { return item }
                members["note"] = .string("approved by the board")
                return .version(id: id, record: JSONValue.object(members).encoded(pretty: false))
            }
        }
        #expect(try DocumentBundle(contentsOf: url).headVersion.id == head.id, "the id does not cover the member")
        let validate = try Run.docctl(["validate", "p.dkproj", "--json"], in: directory.url)
        #expect(validate.status == 1, "\(validate.output)")
        let report = try #require(
            try JSONDecoder().decode([ValidationReport].self, from: validate.standardOutput).first)
        #expect(report.findings.map(\.code) == ["version.unknown-member"])
        #expect(report.findings.first?.version == head.number)
        #expect(
            report.findings.first?.message
                == """
                its record has a member the format does not define (note), which neither its id nor a signature \
                covers
                """
        )
    }

    @Test func aDamagedSegmentIsReportedNotFollowed() throws {
        let directory = try TemporaryDirectory()
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 20, saves: 40)
        // A byte inside the oldest segment's first block: the head's block is elsewhere.
        let oldest = try FormatThreeFixtures.damageSegment(of: url, newest: false, offset: 20)

        let validate = try Run.docctl(["validate", "p.dkproj"], in: directory.url)
        #expect(
            validate.status == 1
                && validate.output.contains("  error history.damaged: entry '\(oldest)': invalid history segment: "),
            "\(validate.output)")
        for command in [["log", "p.dkproj"], ["log", "p.dkproj", "--author", "nobody"], ["show", "p.dkproj", "2"]] {
            let result = try Run.docctl(command, in: directory.url)
            #expect(
                result.status == 65 && result.standardError.hasPrefix("error: p.dkproj: ")
                    && result.standardError.contains(oldest)
                    && result.standardError.split(separator: "\n").count == 1, "\(command): \(result.standardError)")
        }
        // A full log prints as it reads, newest first: the versions of the newer segments
        // come out, then the error.
        let log = try Run.docctl(["log", "p.dkproj", "--oneline"], in: directory.url)
        let sound = try #require(HistoryManifest.places(ofSegment: oldest)).upperBound + 1
        #expect(
            log.status == 65 && log.output.hasPrefix("41  ")
                && log.output.split(separator: "\n").count == 41 - sound + 1,
            "versions \(sound)–41 are in sound segments: \(log.output)")
        // What does not need the damaged block still reads: `info` takes its counts from
        // the manifest.
        #expect(try Run.docctl(["cat", "p.dkproj"], in: directory.url).status == 0)
        #expect(try Run.docctl(["info", "p.dkproj"], in: directory.url).status == 0)
        #expect(try Run.docctl(["log", "p.dkproj", "-n", "3"], in: directory.url).status == 0)
    }
}
