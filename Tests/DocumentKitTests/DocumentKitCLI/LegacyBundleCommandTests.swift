import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI
@testable import SampleProject

/// docctl on bundles of older and newer schemas: edits migrate an older head and save the
/// current schema; a newer head is read but never written.
@Suite struct LegacyBundleCommandTests {
    @Test func setOnA100BundleSavesTheMigratedDocumentAsA300Version() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v1.dkproj", to: directory)
        let storedHead = try Run.docctl(["cat", "legacy-v1.dkproj"], in: directory.url).standardOutput

        let set = try Run.docctl(
            ["set", "legacy-v1.dkproj", "tasks[1].status", "inProgress", "-m", "Digging", "--author", "ada"],
            in: directory.url)
        #expect(set.status == 0, "\(set.standardError)")
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(try bundle.manifest.versions.map(\.schema) == Array(repeating: "1.0.0", count: 6) + ["4.0.0"])
        #expect(set.output == "saved version 7 (\(bundle.headVersion.shortID)) of legacy-v1.dkproj: Digging\n")
        #expect(
            try Run.docctl(["get", "legacy-v1.dkproj", "tasks[1].status"], in: directory.url).output == "inProgress\n")
        #expect(try Run.docctl(["get", "legacy-v1.dkproj", "tasks[0].status"], in: directory.url).output == "done\n")
        #expect(try Run.docctl(["get", "legacy-v1.dkproj", "summary", "--json"], in: directory.url).output == "\"\"\n")
        // The old versions are what they were: same bytes, readable as stored.
        #expect(
            try Run.docctl(["cat", "legacy-v1.dkproj", "--version", "6"], in: directory.url).standardOutput
                == storedHead)
        #expect(
            try Run.docctl(["get", "legacy-v1.dkproj", "tasks[0].isComplete", "--version", "6"], in: directory.url)
                .output == "true\n")
        for number in 1...6 {
            #expect(
                try Run.docctl(["cat", "legacy-v1.dkproj", "--version", "\(number)"], in: directory.url).standardOutput
                    == Run.docctl(["cat", Fixtures.sampleDoc("legacy-v1.dkproj").path, "--version", "\(number)"])
                    .standardOutput)
        }
        #expect(
            try Run.docctl(["validate", "--deep", "legacy-v1.dkproj"], in: directory.url).output
                == "legacy-v1.dkproj: ok (7 versions, 16 objects, every digest checked)\n")
    }

    @Test func anEditThatFailsOnAnOlderBundleSavesNothing() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v2.dkproj", to: directory)
        let before = try Data(contentsOf: url)
        // Edits are made to the current schema: the old field is gone.
        expectFailure(
            try Run.docctl(["set", "legacy-v2.dkproj", "tasks[0].isComplete", "false"], in: directory.url), status: 65,
            containing: "error: legacy-v2.dkproj: tasks[0].isComplete: unknown field 'isComplete'")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func editShowsTheDocumentInTheCurrentSchema() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v1.dkproj", to: directory)
        let before = try Data(contentsOf: url)
        let seen = directory.url.appendingPathComponent("seen.json")
        let editor = try Fixtures.write(
            Data("#!/bin/sh\ncp \"$1\" \(seen.path)\n".utf8), to: "editor.sh", in: directory.url)
        chmod(editor.path, 0o755)
        let result = try Run.docctl(
            ["edit", "legacy-v1.dkproj", "tasks[0]"], in: directory.url,
            environment: ["EDITOR": editor.path, "VISUAL": "", "TMPDIR": directory.url.path])
        #expect(result.status == 0, "\(result.standardError)")
        let shown = try JSONValue.parse(try Data(contentsOf: seen))
        #expect(try shown.value(at: JSONPath(parsing: "status")) == .string("done"))
        #expect(throws: DocumentKitError.self) { try shown.value(at: JSONPath(parsing: "isComplete")) }
        #expect(try Data(contentsOf: url) == before, "left unchanged: nothing saved, not even the migration")
    }

    @Test func aNewerSchemaIsReadButNeverWritten() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("small.dkproj", to: directory)
        let future = #"{"name": "Reading list", "colour": "red", "tasks": []}"# + "\n"
        try Fixtures.saveVersion(of: url, json: future, schema: "9.0.0")
        let before = try Data(contentsOf: url)
        let refusal =
            "error: small.dkproj: written with Project schema 9.0.0; this build reads up to 4.0.0; upgrade docctl\n"

        // Reading what is stored works.
        #expect(try Run.docctl(["cat", "small.dkproj"], in: directory.url).output == future)
        #expect(try Run.docctl(["get", "small.dkproj", "colour"], in: directory.url).output == "red\n")
        #expect(try Run.docctl(["info", "small.dkproj"], in: directory.url).output.contains("schema:    9.0.0\n"))
        #expect(try Run.docctl(["log", "small.dkproj", "-n", "1", "--oneline"], in: directory.url).status == 0)
        #expect(
            try Run.docctl(["export", "small.dkproj", "--format", "json", "-o", "out.json"], in: directory.url).status
                == 0)

        // Every edit is refused with the same message, and the bundle stays as it was.
        let editor = try Fixtures.write(Data("#!/bin/sh\nexit 0\n".utf8), to: "editor.sh", in: directory.url)
        chmod(editor.path, 0o755)
        let edits: [[String]] = [
            ["set", "small.dkproj", "name", "x"],
            ["unset", "small.dkproj", "colour"],
            ["attach", "small.dkproj", "editor.sh"],
            ["edit", "small.dkproj"],
            ["restore", "small.dkproj", "head"]
        ]
        for arguments in edits {
            let result = try Run.docctl(
                arguments, in: directory.url,
                environment: ["EDITOR": editor.path, "VISUAL": "", "TMPDIR": directory.url.path])
            #expect(result.status == 65, "\(arguments)")
            #expect(result.standardError == refusal, "\(arguments)")
            #expect(result.output.isEmpty)
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(Fixtures.listing(directory.url) == ["editor.sh", "out.json", "small.dkproj"], "no file left behind")

        // An application is refused the same way.
        #expect {
            try DocumentController<Project>(contentsOf: url)
        } throws: { error in
            let error = error as! DocumentKitError
            return error.code == .unsupportedFormat
                && error.message.hasPrefix("written with Project schema 9.0.0; this build reads up to 4.0.0; upgrade ")
        }

        // Validation says so, as an error.
        let validate = try Run.docctl(["validate", "small.dkproj"], in: directory.url)
        #expect(validate.status == 1)
        #expect(
            validate.output == """
                small.dkproj: 1 error
                  error document.schema-newer: version 3: written with Project schema 9.0.0; this build reads up to 4.0.0; upgrade docctl

                """)
    }

    @Test func writeSchemaNamesOneOfTheTypesSchemasAndNeverGoesBack() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        let cases: [(String, String)] = [
            (
                "1.5.0",
                """
                error: p.dkproj: DOCUMENTKIT_WRITE_SCHEMA is 1.5.0, which is not a schema of Project (1.0.0, \
                2.0.0, 3.0.0, 4.0.0)\n
                """
            ),
            (
                "two",
                """
                error: p.dkproj: DOCUMENTKIT_WRITE_SCHEMA is 'two', which is not a schema version \
                (major.minor.patch)\n
                """
            ),
            (
                "1.0.0",
                """
                error: p.dkproj: DOCUMENTKIT_WRITE_SCHEMA=1.0.0 cannot write over a head written with schema \
                4.0.0: documents are never migrated back\n
                """
            )
        ]
        for (value, message) in cases {
            let result = try Run.docctl(
                ["set", "p.dkproj", "name", "x"], in: directory.url,
                environment: [DocumentTool.writeSchemaVariable: value])
            #expect(result.status == 64 && result.standardError == message, "\(value)")
        }
        // The current schema, or an empty value, is no override at all.
        #expect(
            try Run.docctl(
                ["set", "p.dkproj", "name", "y"], in: directory.url,
                environment: [DocumentTool.writeSchemaVariable: "4.0.0"]
            ).status == 0)
        #expect(
            try Run.docctl(
                ["set", "p.dkproj", "name", "z"], in: directory.url, environment: [DocumentTool.writeSchemaVariable: ""]
            ).status == 0)
    }

    @Test func writeSchemaWritesWhatThatSchemaDid() throws {
        let directory = try TemporaryDirectory()
        let old = [DocumentTool.writeSchemaVariable: "1.0.0"]
        try Run.docctl(["new", "p.dkproj", "--name", "Old"], in: directory.url, environment: old)
        let set = try Run.docctl(
            ["set", "p.dkproj", "tasks[+]", #"{"title": "a", "isComplete": true}"#], in: directory.url, environment: old
        )
        #expect(set.status == 0, "\(set.standardError)")
        expectFailure(
            try Run.docctl(["set", "p.dkproj", "tasks[0].status", "done"], in: directory.url, environment: old),
            status: 65,
            containing:
                """
                tasks[0].status: unknown field 'status' (known fields: attachments, dueDate, id, isComplete, \
                notes, priority, title) (org.documentkit.project schema 1.0.0)
                """
        )
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        #expect(try bundle.manifest.versions.map(\.schema) == ["1.0.0", "1.0.0"])
        #expect(try Run.docctl(["get", "p.dkproj", "tasks[0].isComplete"], in: directory.url).output == "true\n")
    }
}

/// Exports carry no schema: importing one of an older schema names it.
@Suite struct LegacyImportTests {
    @Test func anExportOfAnOldVersionImportsWithItsSchema() throws {
        let directory = try TemporaryDirectory()
        let source = Fixtures.sampleDoc("legacy-v1.dkproj").path
        #expect(try Run.docctl(["export", source, "--format", "dir", "-o", "old"], in: directory.url).status == 0)
        expectFailure(
            try Run.docctl(["import", "old", "-o", "new.dkproj"], in: directory.url), status: 65,
            containing: "error: old: tasks[0].isComplete: unknown field 'isComplete'")
        expectFailure(
            try Run.docctl(["import", "old", "-o", "new.dkproj", "--schema", "9.0.0"], in: directory.url), status: 65,
            containing: "error: old: written with Project schema 9.0.0; this build reads up to 4.0.0; upgrade docctl")
        expectFailure(
            try Run.docctl(["import", "old", "-o", "new.dkproj", "--schema", "v1"], in: directory.url), status: 64,
            containing: "error: 'v1' is not a schema version (use major.minor.patch, e.g. 1.0.0)")
        #expect(Fixtures.listing(directory.url) == ["old"])

        let imported = try Run.docctl(["import", "old", "-o", "new.dkproj", "--schema", "1.0.0"], in: directory.url)
        #expect(imported.status == 0, "\(imported.standardError)")
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("new.dkproj"))
        #expect(bundle.headVersion.schema == "4.0.0")
        let project = try bundle.read(Project.self)
        #expect(project == (try DocumentBundle(contentsOf: Fixtures.sampleDoc("legacy-v1.dkproj")).read(Project.self)))
        #expect(try project.thumbnail?.data().count == 4898)
    }
}
