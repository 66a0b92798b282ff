import Foundation
import Testing

@testable import DocumentKit

/// `validate` of a format-3 history reads its segments once and checks the version graph
/// as it goes, never listing the history (FORMAT.md §12.5): each defect a writer could
/// leave in a segment is reported at the version that holds it, as `--deep` (which lists
/// the history, and reads every old document too) reports it.
@Suite struct FormatThreeValidationTests {
    /// A packed project of six versions (one segment holding them all), with that segment's
    /// items passed through `edit`; the records by place (1-based) are given to it too.
    private func history(
        _ edit: (_ items: [HistorySegment.Item], _ records: [Int: (id: VersionID, index: Int)]) throws ->
            [HistorySegment.Item]
    )
        throws -> (directory: TemporaryDirectory, ids: [VersionID])
    {
        let directory = try TemporaryDirectory()
        _ = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("saved.dkproj"), taskCount: 20, saves: 5)
        #expect(try Run.docctl(["pack", "saved.dkproj", "-o", "p.dkproj"], in: directory.url).status == 0)
        let url = directory.url.appendingPathComponent("p.dkproj")
        #expect(try DocumentBundle(contentsOf: url).history?.segments.count == 1)
        var ids: [VersionID] = []
        try FormatThreeFixtures.rewriteNewestSegment(of: url) { items in
            var records: [Int: (id: VersionID, index: Int)] = [:]
            for (index, item) in items.enumerated() {
                guard case .version(let id, _) = item else { continue }
                ids.append(id)
                records[records.count + 1] = (id, index)
            }
            return try edit(items, records)
        }
        return (directory, ids)
    }

    /// The record at `index` of `items` with `change` made to its members, and the id that
    /// makes (the segment's version table names each record by it).
    private func editing(
        _ items: [HistorySegment.Item], at index: Int, _ change: (inout [String: JSONValue]) throws -> Void
    ) throws -> [HistorySegment.Item] {
        guard case .version(_, let record) = items[index], case .object(var members) = try JSONValue.parse(record)
        else {
            Issue.record("item \(index) is not a record")
            return items
        }
        try change(&members)
        var items = items
        let edited = JSONValue.object(members).encoded(pretty: false)
        items[index] = .version(id: try BundleVersion.id(ofSegmentRecord: edited), record: edited)
        return items
    }

    /// The findings of `validate --json`, as (code, version), and those of `--deep`.
    private func findings(in directory: TemporaryDirectory) throws -> (quick: [String], deep: [String]) {
        func run(_ extra: [String]) throws -> [String] {
            let result = try Run.docctl(["validate", "p.dkproj", "--json"] + extra, in: directory.url)
            let report = try #require(
                try JSONDecoder().decode([ValidationReport].self, from: result.standardOutput).first)
            #expect(result.status == (report.findings.contains { $0.severity == .error } ? 1 : 0))
            return report.findings.map { "\($0.code) \($0.version.map(String.init) ?? $0.entry ?? "-")" }
        }
        return (try run([]), try run(["--deep"]))
    }

    @Test func aParentNoVersionHoldsIsReportedAtEachVersionNamingIt() throws {
        let bogus = String(repeating: "ab", count: 32)
        let (directory, _) = try history { items, records in
            try editing(items, at: records[3]!.index) { $0["parents"] = .array([.string(bogus)]) }
        }
        let found = try findings(in: directory)
        // Version 3's id changed with its record, so version 4 names an id nothing holds.
        #expect(found.quick == ["version.parent-missing 3", "version.parent-missing 4"])
        #expect(Set(found.quick).isSubset(of: found.deep), "\(found.deep)")
    }

    @Test func aParentThatComesLaterIsACycleReportedAsOrder() throws {
        let (directory, ids) = try history { items, records in
            try editing(items, at: records[2]!.index) { $0["parents"] = .array([.string(records[5]!.id)]) }
        }
        let found = try findings(in: directory)
        #expect(found.quick == ["version.parent-order 2", "version.parent-missing 3"])
        #expect(Set(found.quick).isSubset(of: found.deep), "\(found.deep)")
        #expect(ids.count == 6)
    }

    @Test func aSecondVersionWithoutParentsIsASecondHistory() throws {
        let (directory, _) = try history { items, records in
            try editing(items, at: records[4]!.index) { $0["parents"] = .array([]) }
        }
        let found = try findings(in: directory)
        #expect(found.quick == ["version.second-root 4", "version.parent-missing 5"])
        #expect(Set(found.quick).isSubset(of: found.deep), "\(found.deep)")
    }

    @Test func aSignatureOfAnotherVersionIsReported() throws {
        let key = SigningKey.generate()
        let (directory, _) = try history { items, records in
            let other = try VersionSignature(signing: records[1]!.id, with: key)
            return try editing(items, at: records[4]!.index) {
                $0["signature"] = .object(["key": .string(other.key), "value": .string(other.value)])
            }
        }
        let found = try findings(in: directory)
        // A signature is not part of the record text: no id changed.
        #expect(found.quick == ["version.signature-invalid 4"])
        #expect(Set(found.quick).isSubset(of: found.deep), "\(found.deep)")
    }

    @Test func aTreeNoSegmentHoldsIsReported() throws {
        let bogus = String(repeating: "cd", count: 32)
        let (directory, _) = try history { items, records in
            try editing(items, at: records[3]!.index) { $0["tree"] = .string(bogus) }
        }
        let found = try findings(in: directory)
        #expect(found.quick == ["tree.missing 3", "version.parent-missing 4"])
        #expect(Set(found.quick).isSubset(of: found.deep), "\(found.deep)")
    }

    @Test func aDeltaWhoseBaseNoSegmentHoldsIsReported() throws {
        let bogus = try #require(ObjectDigest(hex: String(repeating: "ef", count: 32)))
        var changed: ObjectDigest?
        let (directory, _) = try history { items, _ in
            items.map { item in
                guard changed == nil, case .object(var object) = item, case .delta(_, let program) = object.storage
                else { return item }
                changed = object.digest
                object.storage = .delta(base: bogus, program: program)
                return .object(object)
            }
        }
        let digest = try #require(changed, "the history holds a delta")
        let found = try findings(in: directory)
        // The deltas made against it (directly or not) never reach an object stored whole.
        #expect(
            found.quick.filter { !$0.hasPrefix("object.delta-loop ") } == [
                "object.delta-base-missing \(digest.entryName)"
            ], "\(found.quick)")
        #expect(Set(found.quick).isSubset(of: found.deep), "\(found.deep)")
    }

    @Test func anUntouchedHistoryCountsWhatDeepCounts() throws {
        let (directory, ids) = try history { items, _ in items }
        let quick = try Run.docctl(["validate", "p.dkproj", "--json"], in: directory.url)
        let deep = try Run.docctl(["validate", "p.dkproj", "--json", "--deep"], in: directory.url)
        let reports = try [quick, deep].map {
            try #require(try JSONDecoder().decode([ValidationReport].self, from: $0.standardOutput).first)
        }
        #expect(reports.map(\.findings.count) == [0, 0])
        #expect(reports[0].versions == ids.count && reports[1].versions == ids.count)
        #expect(reports[0].objects == reports[1].objects)
    }
}
