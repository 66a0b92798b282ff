import Foundation
import Testing

@testable import DocumentKit

@Suite struct PruneTests {
    /// Five versions; version 2 attaches a blob that version 4 replaces.
    private func makeBundle(in directory: URL) throws -> URL {
        try Fixtures.write(Fixtures.noise(20_000, seed: 1), to: "a.bin", in: directory)
        try Fixtures.write(Fixtures.noise(20_000, seed: 2), to: "b.bin", in: directory)
        try Run.docctl(
            ["new", "p.dkproj", "--name", "v1"], in: directory, environment: ["SOURCE_DATE_EPOCH": "1767225600"])
        try Run.docctl(
            ["attach", "p.dkproj", "a.bin", "--as", "thumbnail"], in: directory,
            environment: ["SOURCE_DATE_EPOCH": "1767312000"])
        try Run.docctl(
            ["set", "p.dkproj", "name", "v3"], in: directory, environment: ["SOURCE_DATE_EPOCH": "1767398400"])
        try Run.docctl(
            ["attach", "p.dkproj", "b.bin", "--as", "thumbnail"], in: directory,
            environment: ["SOURCE_DATE_EPOCH": "1767484800"])
        try Run.docctl(
            ["set", "p.dkproj", "name", "v5"], in: directory, environment: ["SOURCE_DATE_EPOCH": "1767571200"])
        return directory.appendingPathComponent("p.dkproj")
    }

    @Test func pruneKeepsIdsDropsUnusedObjectsAndValidates() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(in: directory.url)
        let before = try DocumentBundle(contentsOf: url)
        let sizeBefore = try Data(contentsOf: url).count

        let dry = try Run.docctl(["prune", "p.dkproj", "--keep", "2", "--dry-run", "--json"], in: directory.url)
        #expect(try Data(contentsOf: url).count == sizeBefore, "a dry run writes nothing")
        let report = try JSONDecoder().decode(BundlePruner.Report.self, from: dry.standardOutput)
        #expect(report.dryRun && report.removedVersions == [1, 2, 3] && report.keptVersions == 2)
        #expect(report.freedBytes > 20_000, "the blob only versions 2 and 3 used goes")

        let pruned = try Run.docctl(["prune", "p.dkproj", "--keep", "2"], in: directory.url)
        #expect(pruned.output.hasPrefix("removed 3 versions (1–3) and \(report.removedObjects) objects, "))
        let after = try DocumentBundle(contentsOf: url)
        #expect(
            try after.manifest.versions == Array(before.manifest.versions.suffix(2)),
            "ids, numbers and records unchanged")
        #expect(try after.manifest.pruned == before.manifest.versions.prefix(3).map(\.id))
        #expect(try Data(contentsOf: url).count < sizeBefore - 20_000)
        #expect(try BundleValidator.validate(url, deep: true).findings.isEmpty)
        #expect(try Run.docctl(["get", "p.dkproj", "name", "--version", "4"], in: directory.url).output == "v3\n")
        expectFailure(
            try Run.docctl(["restore", "p.dkproj", "2"], in: directory.url), status: 65,
            containing: "version '2' was pruned (versions 4–5 remain)")
        expectFailure(
            try Run.docctl(
                ["cat", "p.dkproj", "--version", String(before.manifest.versions[0].id.prefix(8))], in: directory.url),
            status: 65, containing: "was pruned")
    }

    @Test func pruneBeforeADateAndWithBothLimits() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(in: directory.url)
        // Both: only what both would drop (versions before Jan 3 AND outside the newest 4).
        let both = try Run.docctl(
            ["prune", "p.dkproj", "--keep", "4", "--before", "2026-01-03", "--json"], in: directory.url)
        #expect(try JSONDecoder().decode(BundlePruner.Report.self, from: both.standardOutput).removedVersions == [1])
        let byDate = try Run.docctl(
            ["prune", "p.dkproj", "--before", "2026-01-04T00:00:00Z", "--json"], in: directory.url)
        #expect(
            try JSONDecoder().decode(BundlePruner.Report.self, from: byDate.standardOutput).removedVersions == [2, 3])
        let all = try Run.docctl(["prune", "p.dkproj", "--before", "2030-01-01"], in: directory.url)
        #expect(all.output.hasPrefix("removed 1 version (4–4)"), "the head always stays")
        #expect(try DocumentBundle(contentsOf: url).manifest.versions.map(\.number) == [5])
        #expect(try BundleValidator.validate(url, deep: true).valid)
        expectFailure(
            try Run.docctl(["prune", "p.dkproj"], in: directory.url), status: 64, containing: "say what to prune")
        expectFailure(
            try Run.docctl(["prune", "p.dkproj", "--keep", "0"], in: directory.url), status: 64,
            containing: "at least 1")
        expectFailure(
            try Run.docctl(["prune", "p.dkproj", "--before", "soon"], in: directory.url), status: 64,
            containing: "'soon' is not a date")
    }

    @Test func editsAfterAPruneContinueTheNumbering() throws {
        let directory = try TemporaryDirectory()
        let url = try makeBundle(in: directory.url)
        try Run.docctl(["prune", "p.dkproj", "--keep", "1"], in: directory.url)
        try Run.docctl(["set", "p.dkproj", "name", "v6"], in: directory.url)
        #expect(try DocumentBundle(contentsOf: url).manifest.versions.map(\.number) == [5, 6])
        #expect(try BundleValidator.validate(url, deep: true).valid)
    }
}
