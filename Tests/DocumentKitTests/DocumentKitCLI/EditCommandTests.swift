import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// `docctl edit` end to end, with shell scripts as the editor. Each script runs in the
/// test's folder (docctl's working directory), counts its runs in `count`, and copies the
/// file it was given to `seen-N.json` and what it left to `left-N.json`, so a test can
/// check what the user saw in every round. The folder is also `$TMPDIR`, so the files
/// docctl keeps or leaves behind are in its listing.
@Suite struct EditCommandTests {
    /// The header a refused edit reopens with, above the user's text.
    private func header(_ subject: String, error: String) -> String {
        """
        # The edit of \(subject) was not saved:
        # error: \(error)
        # Correct the JSON below and save to try again, or empty the file to abort.
        # Lines starting with '#' at the top are ignored.

        """
    }

    /// Writes the editor script `name`: `rounds[N-1]` is the shell text of round N (none
    /// after the last), run with the file as `$1`.
    @discardableResult
    private func editor(_ rounds: [String], named name: String = "editor.sh", in directory: TemporaryDirectory) throws
        -> String
    {
        let cases = rounds.enumerated().map { "\($0.offset + 1)) \($0.element) ;;" }.joined(separator: "\n")
        let script = """
            #!/bin/sh
            n=$(cat count 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > count
            cp "$1" "seen-$n.json"
            case $n in
            \(cases)
            esac
            status=$?
            cp "$1" "left-$n.json"
            exit $status
            """
        let path = directory.path(name)
        try Data(script.utf8).write(to: URL(fileURLWithPath: path))
        #expect(chmod(path, 0o755) == 0)
        return path
    }

    /// docctl's environment for an edit: this editor, no $VISUAL (the developer's must not
    /// open), the test's folder as $TMPDIR.
    private func edit(
        _ arguments: [String], editor: String, in directory: TemporaryDirectory,
        environment: [String: String] = [:]
    ) throws -> ExternalTool.Result {
        try Run.docctl(
            ["edit"] + arguments, in: directory.url,
            environment: ["EDITOR": editor, "VISUAL": "", "TMPDIR": directory.url.path].merging(environment) { $1 })
    }

    private func text(_ name: String, in directory: TemporaryDirectory) throws -> String {
        try String(contentsOfFile: directory.path(name), encoding: .utf8)
    }

    private func bundle(_ directory: TemporaryDirectory) throws -> DocumentBundle {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
    }

    /// The files docctl made for the editor that are still there.
    private func scratchFiles(_ directory: TemporaryDirectory) -> [String] {
        Fixtures.listing(directory.url).filter { $0.hasPrefix("docctl-edit-") }
    }

    /// The one file docctl kept, checked for its name and privacy.
    private func keptFile(_ directory: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String
    {
        let kept = scratchFiles(directory)
        try #require(kept.count == 1, "one kept file: \(kept)", sourceLocation: sourceLocation)
        #expect(
            kept[0].wholeMatch(of: /docctl-edit-p-[0-9a-f]{8}\.json/) != nil, "\(kept[0])",
            sourceLocation: sourceLocation)
        #expect(
            try FileManager.default.attributesOfItem(atPath: directory.path(kept[0]))[.posixPermissions] as? Int
                == 0o600,
            sourceLocation: sourceLocation)
        return directory.path(kept[0])
    }

    @Test func aSavedChangeIsOneVersionWithTheMessage() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        let script = try editor(
            [#"echo "$1" > name.txt; stat -c %a "$1" > mode.txt; sed -i 's/"Garden"/"Orchard"/' "$1""#], in: directory)

        let result = try edit(["p.dkproj", "-m", "Rename", "--author", "ada"], editor: script, in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let head = try bundle(directory).headVersion
        #expect(result.output == "saved version 2 (\(head.shortID)) of p.dkproj: Rename\n")
        #expect(result.standardError.isEmpty)
        #expect(try bundle(directory).manifest.versions.count == 2)
        #expect((head.message, head.author) == ("Rename", "ada"))
        #expect(try bundle(directory).read(Project.self).name == "Orchard")

        // The editor was given the document as `docctl cat` prints it, in a private file
        // named after the bundle in $TMPDIR, which is gone once saved.
        #expect(
            try text("seen-1.json", in: directory)
                == String(
                    decoding: try Run.docctl(["cat", "p.dkproj", "--version", "1"], in: directory.url).standardOutput,
                    as: UTF8.self))
        let name = try text("name.txt", in: directory).trimmingCharacters(in: .newlines)
        #expect(name.wholeMatch(of: /.*\/docctl-edit-p-[0-9a-f]{8}\.json/) != nil, "\(name)")
        #expect(name.hasPrefix(directory.url.path + "/"))
        #expect(try text("mode.txt", in: directory) == "600\n")
        #expect(scratchFiles(directory).isEmpty)
    }

    @Test func anUnchangedFileSavesNothing() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        let url = directory.url.appendingPathComponent("p.dkproj")
        let before = try Data(contentsOf: url)
        let first = try bundle(directory).headVersion
        // Saved as it was, only reformatted, or not touched at all: none is a change.
        let untouched = try editor([#"cat "$1" > copy; cat copy > "$1""#], named: "untouched.sh", in: directory)
        let reformatted = try editor([#"sed -i 's/" : /":/; s/^  //' "$1""#], named: "reformat.sh", in: directory)
        for script in [untouched, reformatted] {
            try? FileManager.default.removeItem(atPath: directory.path("count"))
            let result = try edit(["p.dkproj"], editor: script, in: directory)
            #expect(result.status == 0, "\(script): \(result.standardError)")
            #expect(result.output == "no change: p.dkproj stays at version 1 (\(first.shortID))\n", "\(script)")
            #expect(try text("seen-1.json", in: directory) != text("left-1.json", in: directory) || script == untouched)
        }
        let json = try edit(["p.dkproj", "--json"], editor: "true", in: directory)
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.output.hasPrefix("{\n  \"previous\" : {\n") && json.output.hasSuffix("  \"saved\" : false\n}\n"))
        #expect(try Data(contentsOf: url) == before)
        #expect(try bundle(directory).manifest.versions.count == 1)
        #expect(scratchFiles(directory).isEmpty)
    }

    @Test func invalidTextReopensWithTheErrorAboveItAndIsSavedOnceFixed() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "a"}"#], in: directory.url)
        try editor(
            [
                #"sed -i 's/"title" : "a"/"title" : ""/' "$1""#,
                ##"sed -i 's/"title" : ""/"title" : "#1 # fixed"/' "$1""##
            ], in: directory)

        let result = try edit(["p.dkproj", "-m", "Fix"], editor: directory.path("editor.sh"), in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.output.hasPrefix("saved version 3 ("))
        #expect(try text("count", in: directory) == "2\n")
        // Round two saw the error at the top and the user's text exactly as they left it.
        #expect(
            try text("seen-2.json", in: directory)
                == header("p.dkproj", error: "tasks[0].title: must not be empty") + text("left-1.json", in: directory))
        let saved = try bundle(directory)
        #expect(try saved.manifest.versions.count == 3)
        #expect(saved.headVersion.message == "Fix")
        #expect(try saved.read(Project.self).tasks.map(\.title) == ["#1 # fixed"], "a '#' in a string is text")
        #expect(scratchFiles(directory).isEmpty)
    }

    @Test func aParseErrorNamesTheLineAsTheReopenedFileShowsIt() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        try editor(
            [
                #"sed -i 's/"isArchived" : false,/"isArchived" : false/' "$1""#,
                #"sed -i 's/"isArchived" : false$/"isArchived" : true,/' "$1""#
            ], in: directory)

        let result = try edit(["p.dkproj"], editor: directory.path("editor.sh"), in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        let seen = try text("seen-2.json", in: directory)
        #expect(
            try seen == header(
                "p.dkproj", error: "not valid JSON: expected ',' or '}' in an object at line 8, column 3")
                + text("left-1.json", in: directory))
        #expect(seen.split(separator: "\n", omittingEmptySubsequences: false)[7] == #"  "name" : "Garden","#)
        #expect(try bundle(directory).read(Project.self).isArchived)
    }

    @Test func refusedTextSavedAgainUnfixedIsKept() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "a"}"#], in: directory.url)
        let before = try Data(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        try editor([#"sed -i 's/"title" : "a"/"title" : ""/' "$1""#], in: directory)

        let result = try edit(["p.dkproj"], editor: directory.path("editor.sh"), in: directory)
        let kept = try keptFile(directory)
        #expect(result.status == 65)
        #expect(result.standardError == "error: p.dkproj: tasks[0].title: must not be empty; your text is in \(kept)\n")
        #expect(result.output.isEmpty)
        #expect(try text("count", in: directory) == "2\n", "not reopened a third time")
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == text("seen-2.json", in: directory))
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("p.dkproj")) == before)
    }

    @Test func anAbortedEditKeepsTheTextAndSavesNothing() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        let url = directory.url.appendingPathComponent("p.dkproj")
        let before = try Data(contentsOf: url)
        let script = try editor([#"sed -i 's/"Garden"/"Half done"/' "$1"; false"#], in: directory)

        let result = try edit(["p.dkproj"], editor: script, in: directory)
        let kept = try keptFile(directory)
        #expect(result.status == 1)
        #expect(
            result.standardError
                == """
                error: p.dkproj: edit aborted: the editor '\(script)' exited with status 1; nothing was saved; \
                your text is in \(kept)\n
                """
        )
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == text("left-1.json", in: directory))
        #expect(try String(contentsOfFile: kept, encoding: .utf8).contains(#""name" : "Half done""#))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func anAbortWithNothingToKeepLeavesNoFile() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        let url = directory.url.appendingPathComponent("p.dkproj")
        let before = try Data(contentsOf: url)
        let emptied = try editor([#": > "$1""#], named: "empty.sh", in: directory)
        let cases = [
            ("false", "error: p.dkproj: edit aborted: the editor 'false' exited with status 1; nothing was saved\n"),
            (emptied, "error: p.dkproj: edit aborted: the file was left empty; nothing was saved\n"),
            (
                "no-such-editor-here",
                """
                error: p.dkproj: edit aborted: the editor 'no-such-editor-here' could not be run (status 127: \
                command not found; set VISUAL or EDITOR); nothing was saved\n
                """
            )
        ]
        for (script, message) in cases {
            let result = try edit(["p.dkproj"], editor: script, in: directory)
            #expect(result.status == 1, "\(script)")
            #expect(result.standardError.hasSuffix(message), "\(result.standardError)")
            #expect(result.output.isEmpty)
            #expect(scratchFiles(directory).isEmpty, "\(script)")
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aPathEditsOnlyThatValue() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        for title in ["a", "b", "c"] {
            try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "\#(title)"}"#], in: directory.url)
        }
        let before = try bundle(directory).read(Project.self)
        try editor(
            [#"sed -i 's/"title" : "b"/"title" : "B"/' "$1""#, #"sed -i 's/Garden/Orchard/' "$1""#], in: directory)

        let task = try edit(["p.dkproj", "tasks[1]"], editor: directory.path("editor.sh"), in: directory)
        #expect(task.status == 0, "\(task.standardError)")
        guard
            case .object(let members) = try JSONValue.parse(
                Data(contentsOf: directory.url.appendingPathComponent("seen-1.json")))
        else {
            Issue.record("the editor was not given the task")
            return
        }
        #expect(members["title"] == .string("b") && members["id"] == .string(before.tasks[1].id.uuidString))
        var expected = before
        expected.tasks[1].title = "B"
        #expect(try bundle(directory).read(Project.self) == expected)
        #expect(try bundle(directory).headVersion.message == "Edit tasks[1]")

        let name = try edit(["p.dkproj", "name"], editor: directory.path("editor.sh"), in: directory)
        #expect(name.status == 0, "\(name.standardError)")
        #expect(try text("seen-2.json", in: directory) == "\"Garden\"\n")
        #expect(try bundle(directory).read(Project.self).name == "Orchard")
        #expect(try bundle(directory).headVersion.message == "Edit name")
    }

    @Test func aPathThatIsNotThereIsRefusedBeforeTheEditorOpens() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        let script = try editor([":"], in: directory)
        let cases: [([String], Int32, String)] = [
            (
                ["p.dkproj", "tasks[0]"], 65,
                "error: p.dkproj: no value at tasks[0]: index 0 is out of range (the array has 0 elements)"
            ),
            (["p.dkproj", "colour"], 65, "error: p.dkproj: no value at colour: no such field"),
            (["p.dkproj", "tasks[+]"], 64, "error: p.dkproj: tasks[+]: '[+]' names a new element and can only be set"),
            (["p.dkproj", "tasks["], 64, "error: invalid path 'tasks[': unclosed '[' at character 7"),
            (["missing.dkproj"], 66, "error: missing.dkproj: cannot open: No such file or directory")
        ]
        for (arguments, status, message) in cases {
            let result = try edit(arguments, editor: script, in: directory)
            #expect(result.status == status, "\(arguments)")
            #expect(result.standardError == message + "\n", "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("count")), "the editor never ran")
        #expect(scratchFiles(directory).isEmpty)
    }

    @Test func visualWinsOverEditorAndViIsTheLastResort() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        let visual = try editor([#"sed -i 's/"Garden"/"Visual"/' "$1""#], named: "visual.sh", in: directory)
        let failing = try editor(["exit 1"], named: "failing.sh", in: directory)
        #expect(try edit(["p.dkproj"], editor: failing, in: directory, environment: ["VISUAL": visual]).status == 0)
        #expect(try bundle(directory).read(Project.self).name == "Visual")

        // A blank VISUAL counts as unset; with neither set, `vi` is looked up in PATH.
        let bin = directory.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: false)
        try FileManager.default.copyItem(
            atPath: directory.path("visual.sh"), toPath: bin.appendingPathComponent("vi").path)
        try Run.docctl(["set", "p.dkproj", "name", "Garden"], in: directory.url)
        try FileManager.default.removeItem(atPath: directory.path("count"))
        let fallback = try edit(
            ["p.dkproj"], editor: " ", in: directory,
            environment: [
                "VISUAL": "", "PATH": bin.path + ":" + TestEnvironment.clean["PATH"]!
            ])
        #expect(fallback.status == 0, "\(fallback.standardError)")
        #expect(try bundle(directory).read(Project.self).name == "Visual")
    }

    @Test func anEditorCommandMayHaveArguments() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        let script = directory.path("editor.sh")
        try Data("#!/bin/sh\n[ \"$1\" = --name ] || exit 3\nsed -i \"s/\\\"Garden\\\"/\\\"$2\\\"/\" \"$3\"\n".utf8)
            .write(to: URL(fileURLWithPath: script))
        #expect(chmod(script, 0o755) == 0)

        let result = try edit(["p.dkproj"], editor: "'\(script)' --name 'Two words'", in: directory)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try bundle(directory).read(Project.self).name == "Two words")
    }

    @Test func aBundleChangedDuringTheEditIsAConflictAndTheTextIsKept() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Garden"], in: directory.url)
        let opened = try bundle(directory).headVersion
        // The other writer saves while the editor is open.
        try editor(
            [
                """
                '\(Run.docctlURL.path)' set p.dkproj isArchived true -m Other >/dev/null && sed -i \
                's/\"Garden\"/\"Mine\"/' \"$1\"
                """
            ], in: directory)

        let result = try edit(["p.dkproj"], editor: directory.path("editor.sh"), in: directory)
        let kept = try keptFile(directory)
        let now = try bundle(directory)
        #expect(result.status == 75)
        #expect(
            result.standardError
                == """
                error: p.dkproj: changed since it was opened: opened at version 1 (\(opened.shortID)), now at \
                version 2 (\(now.headVersion.shortID)); nothing was saved; your text is in \(kept)\n
                """
        )
        #expect(result.output.isEmpty)
        // The other edit is intact, and nothing of ours was written over it.
        #expect(try now.manifest.versions.count == 2)
        #expect(now.headVersion.message == "Other")
        let project = try now.read(Project.self)
        #expect(project.name == "Garden" && project.isArchived)
        let ours = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: kept)))
        #expect(try ours.value(at: JSONPath(parsing: "name")) == .string("Mine"))
        #expect(try ours.value(at: JSONPath(parsing: "isArchived")) == .bool(false))
    }

    @Test func helpIsPrintedExactly() throws {
        let help = try Run.docctl(["edit", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(
            help.output == """
                OVERVIEW: Edit the document, or the value at a JSON path, in your text editor.

                Opens the document (or the value at PATH) as JSON in $VISUAL, else $EDITOR,
                else vi, run by /bin/sh so the command may have arguments, and saves it as one
                new version when the editor exits; saved unchanged, it saves nothing. Text that
                is not JSON, or that the schema refuses, reopens with the error in '#' lines at
                the top; to abort, empty the file or quit the editor with an error (:cq in vi).
                If the bundle changed meanwhile, nothing is saved. Whenever your changes are
                not saved, the error names the file that keeps them. Exit status: 1 aborted, 65
                refused text left unfixed, 75 the bundle changed.

                USAGE: docctl edit <bundle> [<path>] [--message <message>] [--author <author>] [--dry-run] [--json] [--quiet]

                ARGUMENTS:
                  <bundle>                The bundle (.dkproj) to work on.
                  <path>                  A path such as name or tasks[2] (default: the whole
                                          document).

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
