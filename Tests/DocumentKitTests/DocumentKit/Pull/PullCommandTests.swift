import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// `docctl pull` end to end: two copies of one project edited apart, then brought
/// together both ways, and every way a merge can go.
@Suite struct PullCommandTests {
    /// `a.dkproj` with two tasks and a column, and `b.dkproj`, a copy of it.
    private func copies(in directory: TemporaryDirectory) throws {
        try docctl(["new", "a.dkproj", "--name", "Garden"], in: directory)
        try docctl(["set", "a.dkproj", "tasks[+]", #"{"title": "Dig", "notes": "north"}"#], in: directory)
        try docctl(["set", "a.dkproj", "tasks[+]", #"{"title": "Sow"}"#], in: directory)
        try docctl(["set", "a.dkproj", "columns[+]", #"{"name": "To do"}"#], in: directory)
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("b.dkproj"))
    }

    /// ``copies(in:)`` with both names and the first task's title changed on each side.
    private func conflictingCopies(in directory: TemporaryDirectory) throws {
        try copies(in: directory)
        try docctl(["set", "a.dkproj", "name", "Garden A"], in: directory)
        try docctl(["set", "b.dkproj", "name", "Garden B"], in: directory)
        try docctl(["set", "b.dkproj", "tasks[0].title", "Dig wide"], in: directory)
        try docctl(["set", "a.dkproj", "tasks[0].title", "Dig deep"], in: directory)
    }

    @discardableResult
    private func docctl(
        _ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ExternalTool.Result {
        let result = try Run.docctl(arguments, in: directory.url, environment: environment)
        #expect(result.status == 0, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        return result
    }

    private func bundle(_ name: String, in directory: TemporaryDirectory) throws -> DocumentBundle {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(name))
    }

    private func document(_ name: String, in directory: TemporaryDirectory) throws -> JSONValue {
        let bundle = try bundle(name, in: directory)
        return try JSONValue.parse(bundle.documentData(of: bundle.headVersion))
    }

    private func titles(_ name: String, in directory: TemporaryDirectory) throws -> [String] {
        guard case .object(let project) = try document(name, in: directory), case .array(let tasks)? = project["tasks"]
        else { return [] }
        return tasks.compactMap {
            if case .object(let task) = $0, case .string(let title)? = task["title"] { title } else { nil }
        }
    }

    @Test func copiesEditedApartPulledBothWaysEndAtOneHeadWithEveryVersion() throws {
        let directory = try TemporaryDirectory()
        try copies(in: directory)
        try Fixtures.write(Fixtures.noise(3_000), to: "photo.png", in: directory.url)
        try docctl(["set", "a.dkproj", "name", "Garden A", "-m", "Rename"], in: directory)
        try docctl(["set", "b.dkproj", "tasks[+]", #"{"title": "Water"}"#, "-m", "Water"], in: directory)
        try docctl(["attach", "b.dkproj", "photo.png", "-m", "Photo"], in: directory)
        let (a, b) = (try bundle("a.dkproj", in: directory), try bundle("b.dkproj", in: directory))

        let merged = try docctl(["pull", "a.dkproj", "b.dkproj"], in: directory)
        let head = try bundle("a.dkproj", in: directory).headVersion
        #expect(
            try merged.output
                == """
                merged b.dkproj into a.dkproj as version 8 (\(head.shortID)), with 2 versions from it (common \
                ancestor version 4 (\(a.manifest.versions[3].shortID)))\n
                """
        )
        #expect(
            try head.parents == [a.manifest.head, b.manifest.head]
                && head.message == "Merge b.dkproj at \(b.headVersion.shortID)")
        let forward = try docctl(["pull", "b.dkproj", "a.dkproj"], in: directory)
        #expect(forward.output == "fast-forward b.dkproj to version 8 (\(head.shortID)): 2 versions from a.dkproj\n")

        let (pulledA, pulledB) = (try bundle("a.dkproj", in: directory), try bundle("b.dkproj", in: directory))
        #expect(try pulledA.manifest.head == pulledB.manifest.head)
        let every = Set(try a.manifest.versions.map(\.id) + b.manifest.versions.map(\.id) + [head.id])
        #expect(
            try Set(pulledA.manifest.versions.map(\.id)) == every && Set(pulledB.manifest.versions.map(\.id)) == every)
        // Ids travel as they are: each version's record in both copies is the same.
        for version in try pulledA.manifest.versions {
            let other = try #require(pulledB.manifest.versions.first { $0.id == version.id })
            #expect(other.recordText == version.recordText && other.computeID() == other.id)
        }
        for name in ["a.dkproj", "b.dkproj"] {
            let validation = try docctl(["validate", "--deep", name], in: directory)
            #expect(validation.output.hasPrefix("\(name): ok (8 versions"), "\(validation.output)")
            #expect(try titles(name, in: directory) == ["Dig", "Sow", "Water"])
        }
        // The blob came with the versions: its bytes, read from the pulled copy.
        #expect(
            try docctl(["extract", "a.dkproj", "thumbnail", "-o", "-"], in: directory).standardOutput
                == Fixtures.noise(3_000))
        // Both are now up to date with each other, and stay byte for byte as they are.
        let digest = try Fixtures.digest(of: directory.url.appendingPathComponent("a.dkproj"))
        #expect(
            try docctl(["pull", "a.dkproj", "b.dkproj"], in: directory).output
                == "a.dkproj is up to date with b.dkproj (at version 8 (\(head.shortID)))\n")
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("a.dkproj")) == digest)
        // The log shows the merge's two parents.
        #expect(
            try docctl(["log", "a.dkproj", "-n", "1"], in: directory).output.contains(
                "\nmerge    \(a.manifest.head) \(b.manifest.head)\n"))
    }

    /// One merge rule: `ours` and `theirs` edits (docctl arguments) made apart on the two copies.
    private struct Rule: CustomTestStringConvertible, Sendable {
        var name: String
        var ours: [[String]]
        var theirs: [[String]]
        /// The merged document's task titles, or the conflicts' paths.
        var titles: [String]?
        var conflicts: [String]?
        var testDescription: String { name }
    }

    private static let rules: [Rule] = [
        Rule(
            name: "add/add keeps both, ours first", ours: [["set", "tasks[+]", #"{"title": "Ours"}"#]],
            theirs: [["set", "tasks[+]", #"{"title": "Theirs"}"#]], titles: ["Dig", "Sow", "Ours", "Theirs"]),
        Rule(
            name: "edit/edit of different fields takes both", ours: [["set", "tasks[0].title", "Dig deep"]],
            theirs: [["set", "tasks[0].notes", "south"]], titles: ["Dig deep", "Sow"]),
        Rule(
            name: "the same change on both sides is no conflict",
            ours: [["set", "tasks[1].title", "Sow beans"], ["set", "name", "G"]],
            theirs: [["set", "tasks[1].title", "Sow beans"]], titles: ["Dig", "Sow beans"]),
        Rule(
            name: "edit/edit of one field conflicts", ours: [["set", "tasks[0].title", "Dig deep"]],
            theirs: [["set", "tasks[0].title", "Dig wide"]], conflicts: ["tasks[id=*].title"]),
        Rule(
            name: "delete/edit conflicts", ours: [["unset", "tasks[0]"]],
            theirs: [["set", "tasks[0].title", "Dig wide"]], conflicts: ["tasks[id=*]"]),
        Rule(
            name: "a delete on one side applies", ours: [["unset", "tasks[0]"]],
            theirs: [["set", "tasks[+]", #"{"title": "Water"}"#]], titles: ["Sow", "Water"]),
        Rule(
            name: "a reorder on one side applies", ours: [["set", "name", "G"]],
            theirs: [["set", "tasks", "REORDER"]], titles: ["Sow", "Dig"]),
        Rule(
            name: "deleting a column whose tasks the other side changed conflicts", ours: [["unset", "columns[0]"]],
            theirs: [["set", "tasks[+]", "TASK-IN-COLUMN"]], conflicts: ["columns"]),
        Rule(
            name: "a merge that breaks a relationship is a conflict", ours: [["unset", "tasks[1]"]],
            theirs: [["set", "tasks[0].blockedBy", "BLOCKED-BY-SOW"]], conflicts: ["tasks[0].blockedBy[0]"])
    ]

    @Test(arguments: rules) private func eachMergeRule(_ rule: Rule) throws {
        let directory = try TemporaryDirectory()
        try copies(in: directory)
        let column = try docctl(["get", "a.dkproj", "columns[0].id"], in: directory).output.trimmingCharacters(
            in: .newlines)
        let tasks = try docctl(["get", "a.dkproj", "tasks", "--json"], in: directory).output
        let sow = try docctl(["get", "a.dkproj", "tasks[1].id"], in: directory).output.trimmingCharacters(in: .newlines)
        for (name, edits) in [("a.dkproj", rule.ours), ("b.dkproj", rule.theirs)] {
            for edit in edits {
                var arguments = [edit[0], name] + edit.dropFirst()
                if arguments.last == "BLOCKED-BY-SOW" { arguments[arguments.count - 1] = #"["\#(sow)"]"# }
                if arguments.last == "TASK-IN-COLUMN" {
                    arguments[arguments.count - 1] = #"{"title": "Plan", "column": "\#(column)"}"#
                }
                if arguments.last == "REORDER", case .array(let list) = try JSONValue.parse(Data(tasks.utf8)) {
                    arguments[arguments.count - 1] = String(
                        decoding: JSONValue.array(list.reversed()).encoded(pretty: false), as: UTF8.self)
                }
                try docctl(arguments, in: directory)
            }
        }
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("a.dkproj"))
        let result = try Run.docctl(["pull", "a.dkproj", "b.dkproj", "--json"], in: directory.url)
        if let titles = rule.titles {
            #expect(result.status == 0, "\(result.standardError)")
            #expect(try self.titles("a.dkproj", in: directory) == titles)
            #expect(try docctl(["validate", "a.dkproj"], in: directory).status == 0)
        } else {
            #expect(result.status == 1)
            let report = try JSONDecoder().decode(ConflictReport.self, from: Data(result.output.utf8))
            let paths = report.conflicts.map { $0.path.replacing(/id=[0-9A-F-]+/, with: "id=*") }
            #expect(report.result == "conflicts" && paths == rule.conflicts)
            #expect(
                try Fixtures.digest(of: directory.url.appendingPathComponent("a.dkproj")) == before, "nothing written")
        }
    }

    /// A fast-forward names the new head by the number this bundle gives it, which differs
    /// from the other copy's when the two pruned different parts of the history.
    @Test func aFastForwardNamesTheHeadByThisBundlesNumber() throws {
        let directory = try TemporaryDirectory()
        try docctl(["new", "b.dkproj", "--name", "P"], in: directory)
        try docctl(["set", "b.dkproj", "name", "two"], in: directory)
        try docctl(["set", "b.dkproj", "name", "three"], in: directory)
        try docctl(["prune", "b.dkproj", "--keep", "1"], in: directory)
        try docctl(["push", "b.dkproj", "rem"], in: directory)
        try docctl(["clone", "rem", "-o", "c.dkproj"], in: directory)
        try docctl(["set", "b.dkproj", "name", "four"], in: directory)
        try docctl(["push", "b.dkproj", "rem"], in: directory)
        let pulled = try docctl(["pull", "c.dkproj", "rem"], in: directory)
        let head = try bundle("c.dkproj", in: directory).headVersion
        #expect(
            pulled.output == "fast-forward c.dkproj to version \(head.number) (\(head.shortID)): 1 version from rem\n")
        let log = try docctl(["log", "c.dkproj", "-n1"], in: directory).output
        #expect(log.hasPrefix("version \(head.number)  \(head.id)"), "\(log)")
    }

    private struct ConflictReport: Decodable {
        var result: String
        var conflicts: [JSONMerge.Conflict]
    }

    @Test func conflictsAreListedExactlyAndLeaveBothFilesAsTheyWere() throws {
        let directory = try TemporaryDirectory()
        try conflictingCopies(in: directory)
        let task = try docctl(["get", "a.dkproj", "tasks[0].id"], in: directory).output.trimmingCharacters(
            in: .newlines)
        let base = try bundle("a.dkproj", in: directory).manifest.versions[3]
        let digests = try ["a.dkproj", "b.dkproj"].map {
            try Fixtures.digest(of: directory.url.appendingPathComponent($0))
        }

        let text = try Run.docctl(["pull", "a.dkproj", "b.dkproj"], in: directory.url)
        #expect(text.status == 1)
        #expect(
            text.output == """
                2 conflicts merging b.dkproj into a.dkproj (common ancestor version 4 (\(base.shortID))):
                  name: ours "Garden A", theirs "Garden B", base "Garden"
                  tasks[id=\(task)].title: ours "Dig deep", theirs "Dig wide", base "Dig"

                """)
        #expect(
            text.standardError
                == """
                error: a.dkproj: 2 conflicts with b.dkproj; nothing was written (resolve with --ours, --theirs, \
                --resolve PATH=ours|theirs or --edit)\n
                """
        )
        let json = try Run.docctl(["pull", "a.dkproj", "b.dkproj", "--json"], in: directory.url)
        #expect(json.status == 1)
        let report = try JSONDecoder().decode(ConflictReport.self, from: Data(json.output.utf8))
        #expect(
            report.conflicts == [
                JSONMerge.Conflict(
                    path: "name", base: .string("Garden"), ours: .string("Garden A"), theirs: .string("Garden B")),
                JSONMerge.Conflict(
                    path: "tasks[id=\(task)].title", base: .string("Dig"), ours: .string("Dig deep"),
                    theirs: .string("Dig wide"))
            ])
        #expect(
            try ["a.dkproj", "b.dkproj"].map { try Fixtures.digest(of: directory.url.appendingPathComponent($0)) }
                == digests)
        #expect(Fixtures.listing(directory.url) == ["a.dkproj", "b.dkproj"])

        // One side for all, or a side per path.
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("c.dkproj"))
        try docctl(["pull", "a.dkproj", "b.dkproj", "--theirs"], in: directory)
        #expect(try docctl(["get", "a.dkproj", "name"], in: directory).output == "Garden B\n")
        #expect(try titles("a.dkproj", in: directory) == ["Dig wide", "Sow"])
        try docctl(
            ["pull", "c.dkproj", "b.dkproj", "--resolve", "tasks[id=\(task)].title=theirs", "--ours"], in: directory)
        #expect(try docctl(["get", "c.dkproj", "name"], in: directory).output == "Garden A\n")
        #expect(try titles("c.dkproj", in: directory) == ["Dig wide", "Sow"])
        let bad = try Run.docctl(["pull", "c.dkproj", "b.dkproj", "--resolve", "name=mine"], in: directory.url)
        #expect(
            bad.status == 64
                && bad.standardError.hasPrefix("error: --resolve takes PATH=ours or PATH=theirs, not 'name=mine'"))
    }

    /// `--resolve` takes the paths a user writes, though conflicts are listed by id: an
    /// index, another field, `[*]`, a value holding conflicts; it wins over --ours and
    /// --theirs; one that names no conflict is an error naming it, with nothing written.
    @Test func resolveTakesThePathsAUserWritesAndRefusesOneThatNamesNoConflict() throws {
        let directory = try TemporaryDirectory()
        try conflictingCopies(in: directory)
        try docctl(["set", "b.dkproj", "tasks[1].notes", "by hand"], in: directory)
        try docctl(["set", "a.dkproj", "tasks[1].notes", "in rows"], in: directory)
        let task = try docctl(["get", "a.dkproj", "tasks[0].id"], in: directory).output.trimmingCharacters(
            in: .newlines)
        let pristine = directory.url.appendingPathComponent("pristine.dkproj")
        try FileManager.default.copyItem(at: directory.url.appendingPathComponent("a.dkproj"), to: pristine)
        func fresh(_ name: String) throws {
            try? FileManager.default.removeItem(at: directory.url.appendingPathComponent(name))
            try FileManager.default.copyItem(at: pristine, to: directory.url.appendingPathComponent(name))
        }
        func notes(_ name: String) throws -> String {
            try docctl(["get", name, "tasks[1].notes"], in: directory).output.trimmingCharacters(in: .newlines)
        }

        // The issue's case: an index with --theirs; the path asked for wins.
        try fresh("c.dkproj")
        try docctl(["pull", "c.dkproj", "b.dkproj", "--theirs", "--resolve", "tasks[0].title=ours"], in: directory)
        #expect(try titles("c.dkproj", in: directory) == ["Dig deep", "Sow"])
        #expect(try docctl(["get", "c.dkproj", "name"], in: directory).output == "Garden B\n")
        #expect(try notes("c.dkproj") == "by hand")
        // A negative index, another field, a wildcard, a whole record.
        for (paths, title, note) in [
            (["tasks[-2].title=theirs", "tasks[-1].notes=ours"], "Dig wide", "in rows"),
            (["tasks[title=Dig deep].title=theirs", "tasks[title=Sow]=theirs"], "Dig wide", "by hand"),
            (["tasks[*].title=theirs", "tasks[*].notes=theirs"], "Dig wide", "by hand"),
            (["tasks=ours"], "Dig deep", "in rows"),
            (["tasks[id=\(task.uppercased())].title=theirs", "tasks[1]=ours"], "Dig wide", "in rows")
        ] {
            try fresh("c.dkproj")
            try docctl(
                ["pull", "c.dkproj", "b.dkproj", "--resolve", "name=ours"] + paths.flatMap { ["--resolve", $0] },
                in: directory)
            #expect(try titles("c.dkproj", in: directory) == [title, "Sow"], "\(paths)")
            #expect(try notes("c.dkproj") == note, "\(paths)")
        }

        // A path that names no conflict, or two that disagree: one line, nothing written.
        try fresh("c.dkproj")
        let before = try Fixtures.digest(of: directory.url.appendingPathComponent("c.dkproj"))
        let cases: [([String], String)] = [
            (
                ["--theirs", "--resolve", "tasks[2].title=ours"],
                """
                error: c.dkproj: nothing to resolve at 'tasks[2].title': no conflict of the merge is there (the \
                conflicts are at name, tasks[id=\(task)].title, tasks[id=
                """
            ),
            (["--resolve", "summary=ours", "--ours"], "error: c.dkproj: nothing to resolve at 'summary'"),
            (
                ["--resolve", "tasks[0]=ours", "--resolve", "tasks[*].title=theirs", "--resolve", "name=ours"],
                """
                error: c.dkproj: 'tasks[*].title' and 'tasks[0]' both name the conflict at tasks[id=\(task)].title \
                and choose different sides; nothing was written
                """
            )
        ]
        for (arguments, line) in cases {
            expectFailure(
                try Run.docctl(["pull", "c.dkproj", "b.dkproj"] + arguments, in: directory.url), status: 64,
                containing: line)
        }
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("c.dkproj")) == before)
    }

    @Test func editWritesTheMergeReopeningWhileTheTypeRefusesIt() throws {
        let directory = try TemporaryDirectory()
        try copies(in: directory)
        try docctl(["set", "a.dkproj", "name", "Garden A"], in: directory)
        try docctl(["set", "b.dkproj", "name", "Garden B"], in: directory)
        // Round 1 breaks the schema (a name must be a string); round 2 writes a good merge.
        let script = """
            #!/bin/sh
            n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > count
            cp "$1" "seen-$n.json"
            case $n in
            1) sed -i 's/"name" : "Garden A"/"name" : 7/' "$1" ;;
            2) sed -i 's/"name" : 7/"name" : "Garden A+B"/' "$1" ;;
            esac
            """
        try Fixtures.write(Data(script.utf8), to: "editor.sh", in: directory.url)
        chmod(directory.path("editor.sh"), 0o755)
        let result = try docctl(
            ["pull", "a.dkproj", "b.dkproj", "--edit"], in: directory,
            environment: ["EDITOR": directory.path("editor.sh"), "VISUAL": "", "TMPDIR": directory.url.path])
        #expect(result.output.hasPrefix("merged b.dkproj into a.dkproj as version 7"))
        let first = try String(contentsOfFile: directory.path("seen-1.json"), encoding: .utf8)
        // Ours, theirs and base of each conflict, as the conflict list shows them.
        #expect(
            first.hasPrefix(
                """
                # Merging b.dkproj into a.dkproj: 1 conflict:
                #   name: ours "Garden A", theirs "Garden B", base "Garden"
                # Each holds this bundle's value (ours) below.
                # Write the merge you want and save, or empty the file to abort.
                # Lines starting with '#' at the top are ignored.
                {
                """))
        let second = try String(contentsOfFile: directory.path("seen-2.json"), encoding: .utf8)
        #expect(
            second.hasPrefix(
                "# The edit of the merge of b.dkproj into a.dkproj was not saved:\n# error: name: expected a string"),
            "\(second)")
        #expect(try docctl(["get", "a.dkproj", "name"], in: directory).output == "Garden A+B\n")
        #expect(try bundle("a.dkproj", in: directory).headVersion.parents.count == 2)
        #expect(!Fixtures.listing(directory.url).contains { $0.hasPrefix("docctl-pull-") })
    }

    @Test func twoProjectsAreRefusedAndADamagedCopyIsNotTakenFrom() throws {
        let directory = try TemporaryDirectory()
        try copies(in: directory)
        try docctl(["new", "other.dkproj", "--name", "Other"], in: directory)
        let digest = try Fixtures.digest(of: directory.url.appendingPathComponent("a.dkproj"))
        let unrelated = try Run.docctl(["pull", "a.dkproj", "other.dkproj"], in: directory.url)
        #expect(unrelated.status == 65)
        #expect(
            unrelated.standardError
                == """
                error: a.dkproj: shares no version with other.dkproj: they are two projects, not two copies of one \
                (no common ancestor); nothing was pulled\n
                """
        )

        // b's new version, damaged: its segment's block holds the new task's document (a
        // delta) and its record. The pull checks b whole first.
        try docctl(["set", "b.dkproj", "tasks[+]", #"{"title": "Water"}"#], in: directory)
        let b = try bundle("b.dkproj", in: directory)
        let segment = try #require(b.history?.segments.last)
        let entry = try #require(b.zip.entry(named: segment.name))
        let handle = try FileHandle(forUpdating: directory.url.appendingPathComponent("b.dkproj"))
        try handle.seek(toOffset: entry.dataOffset + 10)
        try handle.write(contentsOf: Data("X".utf8))
        try handle.close()
        let damaged = try Run.docctl(["pull", "a.dkproj", "b.dkproj"], in: directory.url)
        #expect(damaged.status == 65)
        // Found as b opens: its newest segment holds the head's record.
        #expect(
            damaged.standardError
                == """
                error: b.dkproj: entry '\(segment.name)': invalid history segment: block 0: the data is not a zstd \
                frame\n
                """
        )
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("a.dkproj")) == digest)
    }

    @Test func aFormatOneCopyIsBroughtForwardWithItsIdsAndAnOlderSchemaIsMigratedBeforeMerging() throws {
        let directory = try TemporaryDirectory()
        // legacy-v2 is format 1, its head in schema 2.0.0: one copy is migrated and edited,
        // the other edited by a 2.0.0 build.
        let old = try Fixtures.copySampleDoc("format-1/legacy-v2.dkproj", to: directory)
        try FileManager.default.copyItem(at: old, to: directory.url.appendingPathComponent("new.dkproj"))
        let oldIDs = try bundle("legacy-v2.dkproj", in: directory).manifest.versions.map(\.id)
        try docctl(["migrate", "new.dkproj"], in: directory)
        try docctl(["set", "new.dkproj", "name", "Kitchen 4"], in: directory)
        try docctl(
            ["set", "legacy-v2.dkproj", "tasks[+]", #"{"title": "Paint", "isComplete": true}"#], in: directory,
            environment: ["DOCUMENTKIT_WRITE_SCHEMA": "2.0.0"])
        try docctl(["pull", "new.dkproj", "legacy-v2.dkproj"], in: directory)
        let merged = try bundle("new.dkproj", in: directory)
        #expect(try merged.headVersion.schema == "4.0.0" && merged.manifest.formatVersion == 3)
        #expect(try Array(merged.manifest.versions.prefix(oldIDs.count).map(\.id)) == oldIDs)
        #expect(try docctl(["get", "new.dkproj", "name"], in: directory).output == "Kitchen 4\n")
        #expect(try titles("new.dkproj", in: directory).last == "Paint")
        #expect(try docctl(["get", "new.dkproj", "tasks[-1].status"], in: directory).output == "done\n")
        #expect(try docctl(["validate", "--deep", "new.dkproj"], in: directory).status == 0)
        // The format-1 copy fast-forwards: upgraded, its old records as they were.
        try docctl(["pull", "legacy-v2.dkproj", "new.dkproj"], in: directory)
        let forward = try bundle("legacy-v2.dkproj", in: directory)
        #expect(try forward.manifest.head == merged.manifest.head && forward.manifest.formatVersion == 3)
        #expect(try forward.manifest.versions.filter { $0.recordFormat == 1 }.map(\.id) == oldIDs)
        #expect(try docctl(["validate", "--deep", "legacy-v2.dkproj"], in: directory).status == 0)
    }

    @Test func theControllerPullsAndReadsTheNewHead() throws {
        let directory = try TemporaryDirectory()
        try copies(in: directory)
        try docctl(["set", "b.dkproj", "name", "Garden B"], in: directory)
        let controller = try DocumentController<Project>(contentsOf: directory.url.appendingPathComponent("a.dkproj"))
        controller.document.summary = "Both"
        try controller.save(message: "Summary", author: "Ada")
        let outcome = try controller.pull(from: directory.url.appendingPathComponent("b.dkproj"), author: "Ada")
        #expect(outcome.kind == .merged && outcome.conflicts.isEmpty && outcome.added.count == 1)
        #expect(controller.document.name == "Garden B" && controller.document.summary == "Both")
        #expect(controller.version?.parents.count == 2 && controller.version?.author == "Ada")
    }
}
