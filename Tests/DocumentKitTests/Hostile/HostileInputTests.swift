import Foundation
import Testing

@testable import DocumentKit

/// Issue 5, point 4: a corpus of broken and hostile files, built by Tests/HostileCorpus/
/// make_corpus.py with a second implementation of the format, given to every docctl
/// command that reads a file: `info`, `cat`, `get`, `validate`, `validate --deep`, `export`
/// to a zip, to a folder and as JSON, and `import`. Each run must give its documented exit status, one
/// `error: FILE: …` line on failure, no crash, no more than 30 s and 384 MiB (in 1 GiB of
/// address space), nothing outside the named output (nor that output on failure), and
/// the input unchanged. `HostileCorpus.check` says exactly what is checked.
@Suite struct HostileInputTests {
    @Test func brokenAndHostileBundles() throws {
        let directory = try TemporaryDirectory()
        _ = try HostileCorpus.build(["bundles"], in: directory)
        let runs = try HostileCorpus.check(HostileBundleCases.all, in: directory)
        #expect(runs == HostileBundleCases.all.count * HostileCommand.allCases.count)
    }

    /// One bundle cut short at offsets in every record: inside the first local header, the
    /// `mimetype` data, the objects, the central directory and the end record.
    @Test func truncatedAtManyOffsets() throws {
        let directory = try TemporaryDirectory()
        let corpus = try HostileCorpus.build(["truncated"], in: directory)
        let files = Fixtures.listing(corpus)
        #expect(files.count >= 20)
        // Where each cut falls depends on docctl's bytes; what is checked is that each is
        // refused, by one line naming the file.
        let cases = files.map { HostileCase.unreadable($0, nil, importing: .fails(nil)) }
        try HostileCorpus.check(cases, in: directory)
    }

    @Test func archivesToImport() throws {
        let directory = try TemporaryDirectory()
        _ = try HostileCorpus.build(["import"], in: directory)
        try HostileCorpus.check(HostileImportCases.all, in: directory)
    }

    /// 200,000 one-byte entries beside a bundle's own, and beside an import's document:
    /// read in bounded time, and imported (1,000,001 are refused: entry-count-over-limit
    /// and import-claims-too-many; Tests/HostileCorpus/run_huge.sh has real millions).
    @Test func twoHundredThousandEntries() throws {
        let directory = try TemporaryDirectory()
        _ = try HostileCorpus.build(["many"], in: directory)
        try HostileCorpus.check(
            [
                HostileCase(
                    "many-entries.dkproj", info: .ok, cat: .ok, validate: .warns("entry.unexpected"), export: .ok),
                .archive("import-many-entries.zip", notABundle: HostileImportCases.noMimetype, importing: .ok)
            ], in: directory)
    }

    /// Version 1 names version 2 as its parent: `head~N` walks parents, and must not walk
    /// round the cycle N times.
    @Test func aVersionNameNeverWalksRoundACycleOfParents() throws {
        let directory = try TemporaryDirectory()
        let corpus = try HostileCorpus.build(["bundles"], in: directory)
        let runner = BoundedRun()
        let far = try runner.docctl(["cat", "parents-cycle.dkproj", "--version", "head~1000000000000"], in: corpus)
        #expect(
            far.status == 65
                && far.standardError.hasPrefix("error: parents-cycle.dkproj: no version 'head~1000000000000'"),
            "\(far.standardError)")
        #expect(far.seconds < 10)
        let near = try runner.docctl(["get", "parents-cycle.dkproj", "name", "--version", "head~1"], in: corpus)
        #expect(
            near.status == 0 && String(decoding: near.standardOutput, as: UTF8.self) == "Built\n",
            "\(near.standardError)")
    }

    @Test func aMissingFileIs66AndAnUnwritableOutputIs73() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        for command in [
            ["info", "nope.dkproj"], ["cat", "nope.dkproj"], ["validate", "nope.dkproj"],
            ["import", "nope", "-o", "x.dkproj"]
        ] {
            expectFailure(try Run.docctl(command, in: directory.url), status: 66, containing: "nope")
        }
        expectFailure(
            try Run.docctl(["export", "p.dkproj", "--format", "zip", "-o", "no/such/folder/p.zip"], in: directory.url),
            status: 73, containing: "no/such/folder")
        expectFailure(try Run.docctl(["info", "."], in: directory.url), status: 65, containing: "not a regular file")
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"])
    }
}
