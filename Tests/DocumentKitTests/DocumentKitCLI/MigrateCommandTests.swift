import Foundation
import Testing

@testable import DocumentKit
@testable import DocumentKitCLI
@testable import SampleProject

/// `docctl migrate` on copies of the SampleDocs bundles of schemas 1.0.0 and 2.0.0.
@Suite struct MigrateCommandTests {
    /// The stored document of every version, by number.
    private func storedDocuments(_ url: URL) throws -> [Int: Data] {
        let bundle = try DocumentBundle(contentsOf: url)
        return try Dictionary(
            uniqueKeysWithValues: bundle.manifest.versions.map { ($0.number, try bundle.documentData(of: $0)) })
    }

    @Test func migratesA100BundleThroughBothStages() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v1.dkproj", to: directory)
        let original = try Data(contentsOf: url)
        let stored = try storedDocuments(url)

        let dry = try Run.docctl(["migrate", "legacy-v1.dkproj", "--dry-run"], in: directory.url)
        #expect(dry.status == 0)
        #expect(
            dry.output == """
                would migrate legacy-v1.dkproj from schema 1.0.0 to 4.0.0; nothing was written
                  v2-tags-and-summary  lightweight  1.0.0 → 2.0.0
                  v3-task-status       custom       2.0.0 → 3.0.0
                  v4-board-and-drafts  lightweight  3.0.0 → 4.0.0

                """)
        #expect(try Data(contentsOf: url) == original, "a dry run writes nothing")

        let run = try Run.docctl(["migrate", "legacy-v1.dkproj", "--author", "ada"], in: directory.url)
        #expect(run.status == 0, "\(run.standardError)")
        let bundle = try DocumentBundle(contentsOf: url)
        let head = bundle.headVersion
        #expect(
            run.output == """
                migrated legacy-v1.dkproj from schema 1.0.0 to 4.0.0: saved version 7 (\(head.shortID))
                  v2-tags-and-summary  lightweight  1.0.0 → 2.0.0
                  v3-task-status       custom       2.0.0 → 3.0.0
                  v4-board-and-drafts  lightweight  3.0.0 → 4.0.0

                """)
        #expect(head.number == 7 && head.schema == "4.0.0" && head.author == "ada")
        #expect(head.message == "Migrate from schema 1.0.0 to 4.0.0")
        #expect(try bundle.manifest.versions.dropLast().allSatisfy { $0.schema == "1.0.0" })

        // The old versions are as they were, byte for byte, and still read as documents.
        for version in try bundle.manifest.versions.dropLast() {
            #expect(try bundle.documentData(of: version) == stored[version.number], "version \(version.number)")
            #expect(try bundle.read(Project.self, version: version).tasks.allSatisfy { $0.tags.isEmpty })
        }
        let migrated = try bundle.read(Project.self)
        #expect(
            migrated == (try bundle.read(Project.self, version: bundle.version(named: "6"))),
            "what reading version 6 gave, saved")
        #expect(
            try Run.docctl(["validate", "--deep", "legacy-v1.dkproj"], in: directory.url).output
                == "legacy-v1.dkproj: ok (7 versions, 16 objects, every digest checked)\n")

        // Once current, migrating again changes nothing.
        let after = try Data(contentsOf: url)
        let again = try Run.docctl(["migrate", "legacy-v1.dkproj"], in: directory.url)
        #expect(again.status == 0)
        #expect(again.output == "legacy-v1.dkproj is at schema 4.0.0 already: nothing to migrate\n")
        #expect(try Data(contentsOf: url) == after)
    }

    @Test func migratesA200BundleThroughTheCustomStageAndPrintsExactJSON() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v2.dkproj", to: directory)
        let stored = try storedDocuments(url)
        let previous = try DocumentBundle(contentsOf: url).headVersion
        let result = try Run.docctl(
            ["migrate", "legacy-v2.dkproj", "--json", "--author", "ada", "-m", "Statuses"], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        let bundle = try DocumentBundle(contentsOf: url)
        let head = bundle.headVersion
        let tasks = try bundle.read(Project.self).tasks.map(\.id.uuidString)
        #expect(
            result.output == """
                {
                  "dryRun" : false,
                  "from" : "2.0.0",
                  "previous" : {
                    "author" : "Sample Author",
                    "changes" : {
                      "blobs" : [
                        {
                          "digest" : "a2aedb2da4c642c7f817d62a9689e7281ffdbfdc9c9a97766af19cd8aaf54acc",
                          "kind" : "added",
                          "size" : 4898
                        }
                      ],
                      "omitted" : 0,
                      "paths" : [
                        {
                          "kind" : "added",
                          "path" : "thumbnail"
                        }
                      ]
                    },
                    "created" : "2026-01-05T00:00:00Z",
                    "id" : "\(previous.id)",
                    "message" : "Add a thumbnail",
                    "number" : 5,
                    "parents" : [
                      "\(previous.parents[0])"
                    ],
                    "schema" : "2.0.0",
                    "writer" : "DocumentKit \(DocumentKitInfo.version)"
                  },
                  "saved" : true,
                  "stages" : [
                    {
                      "from" : "2.0.0",
                      "id" : "v3-task-status",
                      "kind" : "custom",
                      "to" : "3.0.0"
                    },
                    {
                      "from" : "3.0.0",
                      "id" : "v4-board-and-drafts",
                      "kind" : "lightweight",
                      "to" : "4.0.0"
                    }
                  ],
                  "to" : "4.0.0",
                  "version" : {
                    "author" : "ada",
                    "changes" : {
                      "blobs" : [],
                      "omitted" : 0,
                      "paths" : [
                        {
                          "kind" : "removed",
                          "path" : "tasks[id=\(tasks[0])].isComplete"
                        },
                        {
                          "kind" : "added",
                          "path" : "tasks[id=\(tasks[0])].status"
                        },
                        {
                          "kind" : "removed",
                          "path" : "tasks[id=\(tasks[1])].isComplete"
                        },
                        {
                          "kind" : "added",
                          "path" : "tasks[id=\(tasks[1])].status"
                        }
                      ]
                    },
                    "created" : "2026-01-01T00:00:00Z",
                    "id" : "\(head.id)",
                    "message" : "Statuses",
                    "number" : 6,
                    "parents" : [
                      "\(previous.id)"
                    ],
                    "schema" : "4.0.0",
                    "writer" : "DocumentKit \(DocumentKitInfo.version)"
                  }
                }

                """)
        #expect(try bundle.manifest.versions.map(\.schema) == ["1.0.0", "1.0.0", "2.0.0", "2.0.0", "2.0.0", "4.0.0"])
        for version in try bundle.manifest.versions.dropLast() {
            #expect(try bundle.documentData(of: version) == stored[version.number], "version \(version.number)")
        }
        let kitchen = try bundle.read(Project.self)
        #expect(kitchen.tasks.map(\.status) == [.done, .todo])
        #expect(kitchen.summary == "New floor and cupboards" && kitchen.thumbnail?.size == 4898)
    }

    @Test func aCurrentBundleIsLeftAloneAndSaysSoInJSON() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let before = try Data(contentsOf: url)
        let head = try DocumentBundle(contentsOf: url).headVersion
        for arguments in [["migrate", "garden.dkproj", "--json"], ["migrate", "garden.dkproj", "--json", "--dry-run"]] {
            let result = try Run.docctl(arguments, in: directory.url)
            #expect(result.status == 0)
            let report = try JSONDecoder().decode(BundleMigrator.Report.self, from: result.standardOutput)
            #expect(
                report
                    == BundleMigrator.Report(
                        dryRun: arguments.contains("--dry-run"), from: "4.0.0", to: "4.0.0", stages: [],
                        saved: false, version: nil, previous: VersionSummary(head)))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aNewerSchemaIsRefusedAndTheBundleStaysByteIdentical() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v1.dkproj", to: directory)
        try Fixtures.saveVersion(of: url, json: #"{"name": "Garden", "plot": 7}"# + "\n", schema: "9.0.0")
        let before = try Data(contentsOf: url)
        for arguments in [
            ["migrate", "legacy-v1.dkproj"], ["migrate", "legacy-v1.dkproj", "--dry-run"],
            ["migrate", "legacy-v1.dkproj", "--json"]
        ] {
            expectFailure(
                try Run.docctl(arguments, in: directory.url), status: 65,
                containing:
                    """
                    error: legacy-v1.dkproj: written with Project schema 9.0.0; this build reads up to 4.0.0; \
                    upgrade docctl
                    """
            )
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(Fixtures.listing(directory.url) == ["legacy-v1.dkproj"])
    }

    @Test func writeSchemaMigratesToThatSchemaOnly() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("legacy-v1.dkproj", to: directory)
        let result = try Run.docctl(
            ["migrate", "legacy-v1.dkproj"], in: directory.url, environment: [DocumentTool.writeSchemaVariable: "2.0.0"]
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.hasPrefix("migrated legacy-v1.dkproj from schema 1.0.0 to 2.0.0: saved version 7"))
        #expect(try DocumentBundle(contentsOf: url).headVersion.schema == "2.0.0")
        #expect(
            try Run.docctl(["get", "legacy-v1.dkproj", "tasks[0].isComplete"], in: directory.url).output == "true\n")
        #expect(
            try Run.docctl(["migrate", "legacy-v1.dkproj"], in: directory.url).output.hasPrefix(
                "migrated legacy-v1.dkproj from schema 2.0.0 to 4.0.0"))
    }

    @Test func helpIsPrintedExactly() throws {
        let help = try Run.docctl(["migrate", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(
            help.output == """
                OVERVIEW: Upgrade the document to this build's schema, as one new version.

                A head written with an older schema is migrated through the stages of its
                type's migration plan, which are listed in the order they ran; the versions
                before stay as they were. A current head is left alone. A newer schema than
                this build knows is refused. --dry-run lists the stages and writes nothing.

                USAGE: docctl migrate <bundle> [--message <message>] [--author <author>] [--dry-run] [--json] [--quiet]

                ARGUMENTS:
                  <bundle>                The bundle (.dkproj) to work on.

                OPTIONS:
                  -m, --message <message> Why: recorded in the version.
                  --author <author>       Who: recorded in the version (default: your
                                          author.name in 'docctl config', else your login name).
                  --dry-run               Do everything but write: check the change and report
                                          the version it would save.
                  --json                  Print machine-readable JSON instead of text.
                  -q, --quiet             Print nothing but errors, and no progress: the exit
                                          status tells.
                  -h, --help              Show help information.


                """)
    }
}
