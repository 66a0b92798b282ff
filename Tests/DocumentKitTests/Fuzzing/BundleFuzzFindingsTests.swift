import Foundation
import Testing

@testable import DocumentKit

/// What fuzzing bundles (fuzz/, target `bundle`) found, each kept as the input that showed
/// it, in `fuzz/findings/bundle/`. fuzz/README.md says how a finding becomes a test here.
@Suite struct BundleFuzzFindingsTests {
    static func finding(_ name: String, in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try FileManager.default.copyItem(
            at: Fixtures.repository.appendingPathComponent("fuzz/findings/bundle/\(name)"), to: url)
        return url
    }

    /// A version record whose `created` is not a date (`2026-01-0DT00:00:00Z`): decoding it
    /// threw a `DecodingError`, which no caller expects, so `validate`, `log` and `cat`
    /// printed `decodingError.dataCorrupted: …` and exited 70, an internal error, and an
    /// app catching `DocumentKitError` caught nothing. It is damaged input, said as such.
    @Test func aRecordWhoseDateIsNotADateIsDamagedInput() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.finding("record-with-a-bad-date.dkproj", in: directory)
        let problem = """
            entry 'history/000000000001-000000000009': invalid history segment: a version record is invalid: \
            created: '2026-01-0DT00:00:00Z' is not a date
            """
        let report = try #require(
            refusing(DocumentKitError.self, "validate --deep") { try BundleValidator.validate(url, deep: true) })
        #expect(!report.valid && report.findings.map(\.code) == ["container.invalid"])
        #expect(
            report.findings.first?.message.contains(
                "a version record is invalid: created: '2026-01-0DT00:00:00Z' is not a date") == true,
            "\(report.findings)")
        for command in [["log"], ["cat"], ["info"]] {
            let result = try Run.docctl(command + ["record-with-a-bad-date.dkproj"], in: directory.url)
            expectFailure(result, status: 65, containing: "record-with-a-bad-date.dkproj: \(problem)")
        }
    }
}
