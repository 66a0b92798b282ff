import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// What `validate` says about schemas: an older head is a warning (it migrates), a newer
/// or unknown schema an error, and an old document its stages refuse is located.
@Suite struct SchemaValidationTests {
    @Test func anOlderHeadIsAWarningNamingTheStagesAndOldVersionsAreCheckedThroughThem() throws {
        let report = try BundleValidator.validate(Fixtures.sampleDoc("legacy-v2.dkproj"), deep: true)
        #expect(report.valid)
        #expect(
            report.findings == [
                ValidationFinding(
                    "document.schema-version", .warning,
                    """
                    written with schema 2.0.0; this build migrates it to 4.0.0 when reading (v3-task-status, \
                    v4-board-and-drafts)
                    """,
                    version: 5, remedy: .saveInCurrentSchema)
            ])
        // The library names no command; docctl says its own.
        let printed = try Run.docctl(["validate", Fixtures.sampleDoc("legacy-v2.dkproj").path])
        #expect(printed.output.contains("(v3-task-status, v4-board-and-drafts), and 'docctl migrate' saves it so\n"))
    }

    @Test(arguments: [
        (
            "1.5.0",
            "written with Project schema 1.5.0, which this build does not know (it knows 1.0.0, 2.0.0, 3.0.0, 4.0.0)"
        ),
        ("3.0", "written with Project schema '3.0', which is not a schema version (major.minor.patch)")
    ])
    func aSchemaThePlanDoesNotListIsAnError(schema: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("small.dkproj", to: directory)
        try Fixtures.saveVersion(of: url, json: #"{"name": "x"}"#, schema: schema)
        let report = try BundleValidator.validate(url, deep: true)
        #expect(!report.valid)
        #expect(report.findings == [ValidationFinding("document.schema-unknown", .error, message, version: 3)])
        expectFailure(try Run.docctl(["set", url.path, "name", "y"]), status: 65, containing: message)
    }

    @Test func anOldDocumentItsStagesRefuseIsLocated() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("small.dkproj", to: directory)
        // Claims 1.0.0 but uses 3.0.0's field: the first stage refuses it, at its path.
        try Fixtures.saveVersion(
            of: url, json: #"{"name": "x", "tasks": [{"title": "a", "status": "done"}]}"#, schema: "1.0.0")
        let findings = try BundleValidator.validate(url, deep: false).findings
        #expect(findings.map(\.code) == ["document.schema-version", "document.schema"])
        #expect(findings.last?.path == "tasks[0].status")
        #expect(
            findings.last?.message.hasSuffix("(migrating schema 1.0.0 to 2.0.0, stage 'v2-tags-and-summary')") == true)
    }

    @Test func restoringAnOlderVersionRecordsItsSchemaAndReadsMigrated() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v1.dkproj", to: directory)
        #expect(try Run.docctl(["migrate", "legacy-v1.dkproj"], in: directory.url).status == 0)
        #expect(try Run.docctl(["restore", "legacy-v1.dkproj", "5"], in: directory.url).status == 0)
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(bundle.headVersion.schema == "1.0.0", "restore copies the version as it is")
        #expect(try bundle.read(Project.self).tasks.map(\.status) == [.done, .todo])
    }
}
