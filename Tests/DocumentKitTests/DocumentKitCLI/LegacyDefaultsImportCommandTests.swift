import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// `docctl import --legacy-defaults`, run as a real process: XML, binary and JSON exports
/// imported twice, text and --json output, errors and exit statuses checked exactly, and
/// the export never touched.
@Suite struct LegacyDefaultsImportCommandTests {
    private let ignored = "NSWindow Frame Main, lastOpened, launchCount, project_name, sync"

    /// A directory with `p.dkproj` (one version, by ada) and the fixture export in `format`
    /// as `name`, its modification time set in the past so that a write would show.
    private func setUp(_ format: LegacyDefaults.Format, name: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Blog", "--author", "ada"], in: directory.url)
        let source = try LegacyDefaultsFixtures.write(format, to: name, in: directory.url)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_700_000_000)], ofItemAtPath: source.path)
        return directory
    }

    /// The export's bytes, modification time and permissions, to prove it untouched.
    private func fingerprint(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return
            """
            \(try Fixtures.digest(of: URL(fileURLWithPath: path))) \(attributes[.modificationDate]!) \
            \(attributes[.posixPermissions]!)
            """
    }

    private func head(_ directory: TemporaryDirectory, _ name: String = "p.dkproj") throws -> BundleVersion {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(name)).headVersion
    }

    /// `docctl get BUNDLE drafts` after importing the fixture: ids derived from the text.
    private var draftsJSON: String {
        let drafts = LegacyDefaultsFixtures.drafts.map { draft in
            """
              {
                "content" : "\(draft.content)",
                "createdAt" : "\(DocumentDates.format(draft.createdAt!))",
                "id" : "\(draft.id.uuidString)"
              }
            """
        }
        return "[\n" + drafts.joined(separator: ",\n") + "\n]\n"
    }

    @Test(arguments: [(LegacyDefaults.Format.xml, "blog.plist"), (.binary, "blog-binary.plist"), (.json, "blog.json")])
    func importingTwiceAddsTheDraftsOnceAndLeavesTheExportAlone(format: LegacyDefaults.Format, name: String) throws {
        let directory = try setUp(format, name: name)
        let before = try fingerprint(directory.path(name))

        let first = try Run.docctl(
            ["import", "--legacy-defaults", name, "p.dkproj", "--author", "ada"], in: directory.url)
        #expect(first.status == 0 && first.standardError.isEmpty, "\(first.standardError)")
        let imported = try head(directory)
        #expect(
            imported.number == 2 && imported.author == "ada"
                && imported.message == "Import legacy defaults from \(name)")
        #expect(
            first.output == """
                imported \(name) into p.dkproj: saved version 2 (\(imported.shortID))
                  drafts: 3 added, 0 already there, 1 blank skipped
                  ignored keys: \(ignored)

                """)
        #expect(try Run.docctl(["get", "p.dkproj", "drafts"], in: directory.url).output == draftsJSON)
        let bundleDigest = try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj"))

        let second = try Run.docctl(
            ["import", "--legacy-defaults", name, "p.dkproj", "--author", "ada"], in: directory.url)
        #expect(second.status == 0 && second.standardError.isEmpty, "\(second.standardError)")
        #expect(
            second.output == """
                imported \(name) into p.dkproj: no change, it stays at version 2 (\(imported.shortID))
                  drafts: 0 added, 3 already there, 1 blank skipped
                  ignored keys: \(ignored)

                """)
        #expect(
            try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj")) == bundleDigest,
            "no version saved")
        #expect(
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj")).manifest.versions.count
                == 2)
        #expect(try fingerprint(directory.path(name)) == before, "the export is never written")
        let validate = try Run.docctl(["validate", "--deep", "p.dkproj"], in: directory.url)
        #expect(validate.status == 0 && validate.output.hasPrefix("p.dkproj: ok (2 versions, "), "\(validate.output)")
        #expect(Fixtures.listing(directory.url) == [name, "p.dkproj"], "nothing left beside them")
    }

    @Test func jsonReportsAreExact() throws {
        let directory = try setUp(.binary, name: "blog.plist")
        let first = try Run.docctl(
            [
                "import", "--legacy-defaults", "blog.plist", "p.dkproj", "--json", "-m", "Drafts from the old app",
                "--author", "ada"
            ],
            in: directory.url)
        let created = try head(directory)
        let parent = try #require(created.parents.first)
        let previous = """
            {
                "author" : "ada",
                "created" : "2026-01-01T00:00:00Z",
                "id" : "\(parent)",
                "message" : "Create Blog",
                "number" : 1,
                "parents" : [],
                "schema" : "4.0.0",
                "writer" : "DocumentKit \(DocumentKitInfo.version)"
              }
            """
        #expect(
            first.output == """
                {
                  "blankDraftsSkipped" : 1,
                  "bundle" : "p.dkproj",
                  "draftsAdded" : 3,
                  "draftsAlreadyPresent" : 0,
                  "dryRun" : false,
                  "format" : "binary",
                  "ignoredKeys" : [
                    "NSWindow Frame Main",
                    "lastOpened",
                    "launchCount",
                    "project_name",
                    "sync"
                  ],
                  "newBundle" : false,
                  "previous" : \(previous),
                  "saved" : true,
                  "source" : "blog.plist",
                  "version" : {
                    "author" : "ada",
                    "changes" : {
                      "blobs" : [],
                      "omitted" : 0,
                      "paths" : [
                        {
                          "kind" : "added",
                          "path" : "drafts"
                        }
                      ]
                    },
                    "created" : "2026-01-01T00:00:00Z",
                    "id" : "\(created.id)",
                    "message" : "Drafts from the old app",
                    "number" : 2,
                    "parents" : [
                      "\(parent)"
                    ],
                    "schema" : "4.0.0",
                    "writer" : "DocumentKit \(DocumentKitInfo.version)"
                  }
                }

                """)
        let second = try Run.docctl(
            ["import", "--legacy-defaults", "blog.plist", "p.dkproj", "--json"], in: directory.url)
        #expect(second.status == 0)
        #expect(
            second.output.hasPrefix(
                """
                {
                  "blankDraftsSkipped" : 1,
                  "bundle" : "p.dkproj",
                  "draftsAdded" : 0,
                  "draftsAlreadyPresent" : 3,
                  "dryRun" : false,
                  "format" : "binary",
                """))
        #expect(
            second.output.hasSuffix(
                """
                  "saved" : false,
                  "source" : "blog.plist",
                  "version" : null
                }

                """))
        #expect(
            second.output.contains(#""previous" : {\#n    "author" : "ada",\#n    "changes""#),
            "the head the import found")
    }

    @Test func outputCreatesABundleNamedByProjectNameOrName() throws {
        let directory = try setUp(.xml, name: "blog.plist")
        let created = try Run.docctl(
            ["import", "--legacy-defaults", "blog.plist", "-o", "new.dkproj", "--author", "ada"], in: directory.url)
        #expect(created.status == 0, "\(created.standardError)")
        #expect(
            created.output == """
                imported blog.plist into new.dkproj: created at version 1 (\(try head(directory, "new.dkproj").shortID))
                  drafts: 3 added, 0 already there, 1 blank skipped
                  ignored keys: NSWindow Frame Main, lastOpened, launchCount, sync

                """)
        #expect(try Run.docctl(["get", "new.dkproj", "name"], in: directory.url).output == "Blog\n")
        #expect(try Run.docctl(["get", "new.dkproj", "drafts"], in: directory.url).output == draftsJSON)
        // A bundle made from the export has its drafts: importing into it adds nothing.
        let again = try Run.docctl(["import", "--legacy-defaults", "blog.plist", "new.dkproj"], in: directory.url)
        #expect(again.output.hasPrefix("imported blog.plist into new.dkproj: no change, it stays at version 1 ("))

        let exists = try Run.docctl(
            ["import", "--legacy-defaults", "blog.plist", "-o", "new.dkproj"], in: directory.url)
        expectFailure(exists, status: 73, containing: "error: new.dkproj: already exists (use --force to replace it)\n")
        #expect(exists.output.isEmpty)
        let replaced = try Run.docctl(
            ["import", "--legacy-defaults", "blog.plist", "-o", "new.dkproj", "--force", "--name", "Mine", "--json"],
            in: directory.url)
        #expect(
            replaced.status == 0 && replaced.output.contains(#""newBundle" : true"#)
                && replaced.output.contains(#""previous" : null"#))
        #expect(try Run.docctl(["get", "new.dkproj", "name"], in: directory.url).output == "Mine\n")
        #expect(try Run.docctl(["validate", "--deep", "new.dkproj"], in: directory.url).status == 0)
    }

    @Test func aDryRunSaysWhatItWouldDoAndWritesNothing() throws {
        let directory = try setUp(.xml, name: "blog.plist")
        let bundle = directory.url.appendingPathComponent("p.dkproj")
        let digest = try Fixtures.digest(of: bundle)
        let into = try Run.docctl(
            ["import", "--legacy-defaults", "blog.plist", "p.dkproj", "--dry-run"], in: directory.url)
        #expect(
            into.output == """
                would import blog.plist into p.dkproj, now at version 1 (\(try head(directory).shortID)); nothing was written
                  drafts: 3 to add, 0 already there, 1 blank skipped
                  ignored keys: \(ignored)

                """)
        let new = try Run.docctl(
            ["import", "--legacy-defaults", "blog.plist", "-o", "new.dkproj", "--dry-run"], in: directory.url)
        #expect(
            new.output == """
                would import blog.plist into new.dkproj, a new bundle; nothing was written
                  drafts: 3 to add, 0 already there, 1 blank skipped
                  ignored keys: NSWindow Frame Main, lastOpened, launchCount, sync

                """)
        #expect(try Fixtures.digest(of: bundle) == digest)
        #expect(Fixtures.listing(directory.url) == ["blog.plist", "p.dkproj"])
    }

    /// A known key of the wrong type: one line naming the file and key path, exit 65,
    /// nothing written.
    @Test(arguments: [
        (
            "bad.json", Data(#"{"draft_posts": "Hello"}"#.utf8),
            #"error: bad.json: draft_posts: expected an array of strings, found "Hello" (a string)"#
        ),
        (
            "bad.json", Data(#"{"draft_posts": ["Hello", 42]}"#.utf8),
            "error: bad.json: draft_posts[1]: expected a string, found 42 (a number)"
        ),
        (
            "bad.plist",
            try! PropertyListSerialization.data(
                fromPropertyList: ["draft_posts": ["a", "b", 3]], format: .binary, options: 0),
            "error: bad.plist: draft_posts[2]: expected a string, found 3 (a number)"
        ),
        (
            "bad.plist",
            try! PropertyListSerialization.data(fromPropertyList: ["draft_posts": "Hello"], format: .xml, options: 0),
            #"error: bad.plist: draft_posts: expected an array of strings, found "Hello" (a string)"#
        ),
        (
            "bad.plist",
            try! PropertyListSerialization.data(
                fromPropertyList: ["draft_posts": ["a"], "draft_post_dates": [true]], format: .xml, options: 0),
            """
            error: bad.plist: draft_post_dates[0]: expected a date (or a string such as 2026-11-22T09:30:00Z), \
            found true (a boolean)
            """
        ),
        (
            "bad.plist",
            try! PropertyListSerialization.data(fromPropertyList: ["project_name": ["x"]], format: .binary, options: 0),
            "error: bad.plist: project_name: expected a string, found […] (an array)"
        )
    ])
    func wrongTypesAreRefusedWithTheKeyPath(name: String, data: Data, line: String) throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        try Fixtures.write(data, to: name, in: directory.url)
        let digest = try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj"))
        for target in [["p.dkproj"], ["-o", "new.dkproj"]] {
            let result = try Run.docctl(["import", "--legacy-defaults", name] + target, in: directory.url)
            #expect(
                result.status == 65 && result.standardError == line + "\n" && result.output.isEmpty,
                "\(result.standardError)")
        }
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj")) == digest)
        #expect(Fixtures.listing(directory.url) == [name, "p.dkproj"])
    }

    @Test func missingAndUnreadableInputsAreNamed() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        try Fixtures.write(Data("Dear diary\n".utf8), to: "notes.txt", in: directory.url)
        try Fixtures.write(
            Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n".utf8), to: "cut.plist", in: directory.url)
        try LegacyDefaultsFixtures.write(.xml, to: "blog.plist", in: directory.url)
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("folder"), withIntermediateDirectories: false)
        #expect(FileManager.default.createFile(atPath: directory.path("huge.plist"), contents: nil))
        let huge = try FileHandle(forWritingTo: directory.url.appendingPathComponent("huge.plist"))
        try huge.truncate(atOffset: 64 << 20)
        try huge.close()
        let cases: [([String], Int32, String)] = [
            (["nope.plist", "p.dkproj"], 66, "error: nope.plist: cannot open: No such file or directory"),
            (["nope.plist", "none.dkproj"], 66, "error: nope.plist: cannot open: No such file or directory"),
            (
                ["notes.txt", "p.dkproj"], 65,
                "error: notes.txt: is neither a property list (XML or binary) nor a JSON object"
            ),
            (
                ["cut.plist", "p.dkproj"], 65,
                "error: cut.plist: not a valid XML property list: encountered unexpected EOF"
            ),
            (["folder", "p.dkproj"], 65, "error: folder: is a folder, not a defaults export"),
            (
                ["huge.plist", "p.dkproj"], 65,
                "error: huge.plist: is larger than 16 MiB, the limit for a defaults export"
            ),
            (
                ["blog.plist", "none.dkproj"], 66,
                "error: none.dkproj: no such bundle (import with --output to create one)"
            ),
            (["blog.plist", "notes.txt"], 65, "error: notes.txt: ")
        ]
        for (arguments, status, line) in cases {
            let result = try Run.docctl(["import", "--legacy-defaults"] + arguments, in: directory.url)
            expectFailure(result, status: status, containing: line)
            if !line.hasSuffix(": ") { #expect(result.standardError == line + "\n") }
        }
        #expect(
            Fixtures.listing(directory.url) == [
                "blog.plist", "cut.plist", "folder", "huge.plist", "notes.txt", "p.dkproj"
            ])
    }

    @Test func usageErrorsAreOneLineWithStatus64() throws {
        let cases: [([String], String)] = [
            (
                ["--legacy-defaults", "a.plist"],
                """
                error: missing expected argument '<bundle>' (or --output <output> for a new bundle) (see 'docctl \
                import --help')
                """
            ),
            (
                ["--legacy-defaults", "a.plist", "p.dkproj", "-o", "n.dkproj"],
                """
                error: --legacy-defaults takes the bundle to add to or --output for a new one, not both (see \
                'docctl import --help')
                """
            ),
            (
                ["--legacy-defaults", "a.plist", "p.dkproj", "--name", "x"],
                "error: --name goes with --output: an existing bundle keeps its name (see 'docctl import --help')"
            ),
            (
                ["--legacy-defaults", "a.plist", "p.dkproj", "--force"],
                """
                error: --force goes with --output: an existing bundle is added to, not replaced (see 'docctl \
                import --help')
                """
            ),
            (
                ["--legacy-defaults", "a.plist", "p.dkproj", "--schema", "1.0.0"],
                "error: --schema does not go with --legacy-defaults (see 'docctl import --help')"
            ),
            (
                ["a.zip", "-o", "n.dkproj", "--name", "x"],
                "error: --name goes with --legacy-defaults (see 'docctl import --help')"
            ),
            (["a.zip"], "error: missing expected argument '--output <output>' (see 'docctl import --help')"),
            ([], "error: missing expected argument '<source>' (see 'docctl import --help')")
        ]
        for (arguments, line) in cases {
            let result = try Run.docctl(["import"] + arguments)
            #expect(
                result.status == 64 && result.standardError == line + "\n" && result.output.isEmpty,
                "\(arguments): \(result.standardError)")
        }
    }

    @Test func helpIsPrintedExactly() throws {
        let help = try Run.docctl(["import", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(
            help.output == """
                OVERVIEW: Make a new bundle from a folder, a zip or tar, or a JSON file holding
                a document; or import drafts from a UserDefaults export.

                The source needs document.json (and blobs/ holding its blobs), as export writes
                them. A BagIt bag is checked first (every payload file against its manifests;
                65 if one differs, is missing or is extra), then its data/ is imported; a bag
                of every version (export --all-versions) is imported whole, every version with
                its id, as an OCFL object is. A document of an older schema (an export of an
                old version, say) is migrated when --schema names it. A document larger than 64
                MiB is refused before it is read. SOURCE - reads a zip, a tar (plain or
                compressed) or a JSON document from standard input.

                With --legacy-defaults FILE, FILE is a UserDefaults domain exported as an XML
                or binary property list or a JSON object (at most 16 MiB; it is only read). The
                strings of its draft_posts become drafts of the project BUNDLE, added as one
                new version, or of a new bundle with --output; blank ones are skipped.
                draft_post_dates, one date per string, gives the drafts' creation times;
                without it they are created at the time of the import. project_name names a new
                bundle unless --name does. Other keys are ignored and listed. A draft's id
                comes from its text, so importing again adds only the drafts the project does
                not have (leaving those it has as they are) and, with none to add, saves no
                version.

                USAGE: docctl import <source> --output <output> [--schema <schema>] [--force] [--message <message>] [--author <author>] [--json]
                       docctl import --legacy-defaults <file> (<bundle> | --output <output> [--name <name>] [--force]) [--dry-run] [--message <message>] [--author <author>] [--json]

                ARGUMENTS:
                  <source>                The folder, archive or JSON file to read, or - for
                                          standard input; with --legacy-defaults, the bundle to
                                          add to.

                OPTIONS:
                  -o, --output <output>   The bundle to create.
                  --schema <schema>       The schema the source was written with, e.g. 1.0.0
                                          (default: this build's).
                  --legacy-defaults <file>
                                          A UserDefaults domain exported as a property list
                                          (XML or binary) or JSON: import its drafts.
                  --name <name>           With --legacy-defaults and --output: the project's
                                          name (default: the export's project_name, else the
                                          bundle's file name).
                  --force                 Replace the output if it exists.
                  --format-version <format-version>
                                          The bundle layout to write: 3, whose history is in
                                          segments, or 2, which DocumentKit 0.3 and older read
                                          (default: your format-version in 'docctl config',
                                          else 3).
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

    /// The sample export of SampleDocs, into a copy of the garden.
    @Test func theSampleExportImportsIntoTheGarden() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let sample = Fixtures.sampleDoc("sources/legacy-defaults.plist")
        let before = try fingerprint(sample.path)
        let result = try Run.docctl(
            ["import", "--legacy-defaults", sample.path, "garden.dkproj", "--author", "Sample Author"],
            in: directory.url)
        let version = try DocumentBundle(contentsOf: garden).headVersion
        #expect(
            result.output == """
                imported \(sample.path) into garden.dkproj: saved version \(version.number) (\(version.shortID))
                  drafts: 3 added, 0 already there, 1 blank skipped
                  ignored keys: NSWindow Frame MainWindow, SUEnableAutomaticChecks, lastSyncDate, project_name

                """)
        let drafts = try DocumentBundle(contentsOf: garden).read(Project.self).drafts
        #expect(
            drafts.map(\.createdAt).map(DocumentDates.format) == [
                "2025-03-14T09:26:53Z", "2025-04-02T18:07:41Z", "2025-05-20T07:30:00Z"
            ])
        #expect(try Run.docctl(["validate", "--deep", "garden.dkproj"], in: directory.url).status == 0)
        #expect(try fingerprint(sample.path) == before)
    }
}
