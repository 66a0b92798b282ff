import Foundation
import Testing

@testable import DocumentKit
@testable import SampleProject

/// docctl's commands end to end, as real processes on real files.
@Suite struct DocCtlEditingTests {
    @Test func newSetGetAndCatWorkTogether() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "g.dkproj", "--name", "Garden", "--author", "ada"], in: directory.url)
        let set = try Run.docctl(
            [
                "set", "g.dkproj", "tasks[+]", #"{"title": "Buy seeds", "dueDate": "2026-03-01"}"#, "-m", "First task",
                "--author", "ada"
            ], in: directory.url)
        #expect(set.status == 0, "\(set.standardError)")
        #expect(set.output.hasPrefix("saved version 2 ("))
        #expect(set.output.hasSuffix(") of g.dkproj: First task\n"))

        #expect(try Run.docctl(["get", "g.dkproj", "tasks[0].title"], in: directory.url).output == "Buy seeds\n")
        #expect(
            try Run.docctl(["get", "g.dkproj", "tasks[0].title", "--json"], in: directory.url).output
                == "\"Buy seeds\"\n")
        #expect(
            try Run.docctl(["get", "g.dkproj", "tasks[0].dueDate"], in: directory.url).output
                == "2026-03-01T00:00:00Z\n")
        #expect(
            try Run.docctl(["get", "g.dkproj", "tasks[0].priority"], in: directory.url).output == "medium\n",
            "completed with the default")
        let id = try Run.docctl(["get", "g.dkproj", "tasks[0].id"], in: directory.url).output.trimmingCharacters(
            in: .newlines)
        #expect(UUID(uuidString: id) != nil, "a new task gets a UUID")
        #expect(try Run.docctl(["get", "g.dkproj", "tasks[id=\(id)].title"], in: directory.url).output == "Buy seeds\n")

        let cat = try Run.docctl(["cat", "g.dkproj"], in: directory.url)
        let project = try Project.decode(cat.standardOutput)
        #expect(project.name == "Garden" && project.tasks.count == 1)
        let first = try Run.docctl(["cat", "g.dkproj", "--version", "1"], in: directory.url)
        #expect(try Project.decode(first.standardOutput).tasks.isEmpty)
    }

    @Test func valuesThatParseAsJSONAreJSONAndOthersAreStrings() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "a"}"#], in: directory.url)
        #expect(try Run.docctl(["set", "p.dkproj", "tasks[0].status", "done"], in: directory.url).status == 0)
        #expect(try Run.docctl(["get", "p.dkproj", "tasks[0].status"], in: directory.url).output == "done\n")
        #expect(try Run.docctl(["set", "p.dkproj", "isArchived", "true"], in: directory.url).status == 0)
        #expect(try Run.docctl(["get", "p.dkproj", "isArchived"], in: directory.url).output == "true\n")
        #expect(
            try Run.docctl(["set", "p.dkproj", "tasks[0].title", "Call the plumber"], in: directory.url).status == 0)
        #expect(try Run.docctl(["set", "p.dkproj", "name", "1984", "--string"], in: directory.url).status == 0)
        #expect(try Run.docctl(["get", "p.dkproj", "name"], in: directory.url).output == "1984\n")
    }

    @Test func invalidEditsAreRefusedAndSaveNothing() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.url.appendingPathComponent("p.dkproj")
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        let before = try Data(contentsOf: bundle)
        let cases: [([String], Int32, String)] = [
            (
                ["set", "p.dkproj", "name", "42"], 65,
                "error: p.dkproj: name: expected a string, found number (org.documentkit.project schema 4.0.0)"
            ),
            (
                ["set", "p.dkproj", "tasks[+]", #"{"title": ""}"#], 65,
                "error: p.dkproj: tasks[0].title: must not be empty"
            ),
            (
                ["set", "p.dkproj", "tasks[+]", #"{"title": "a", "priority": "urgent"}"#], 65,
                """
                error: p.dkproj: tasks[0].priority: 'urgent' is not a priority (low, medium or high) \
                (org.documentkit.project schema 4.0.0)
                """
            ),
            (
                ["set", "p.dkproj", "colour", "red"], 65,
                """
                error: p.dkproj: colour: unknown field 'colour' (known fields: columns, createdAt, drafts, \
                isArchived, name, summary, tasks, thumbnail) (org.documentkit.project schema 4.0.0)
                """
            ),
            (
                ["set", "p.dkproj", "tasks[3].title", "x"], 65,
                "error: p.dkproj: no value at tasks[3]: index 3 is out of range (the array has 0 elements)"
            ),
            (["set", "p.dkproj", "tasks[", "x"], 64, "error: invalid path 'tasks[': unclosed '[' at character 7"),
            (
                ["get", "p.dkproj", "name.first"], 65,
                "error: p.dkproj: no value at name.first: name is a string, not an object"
            ),
            (
                ["set", "missing.dkproj", "name", "x"], 66,
                "error: missing.dkproj: cannot open: No such file or directory"
            ),
            (["set", "p.dkproj", "name"], 64, "error: missing expected argument '<value>' (see 'docctl set --help')"),
            (
                ["cat", "p.dkproj", "--version", "9"], 65,
                "error: p.dkproj: no version '9' (versions 1–1; use a number, an id prefix, head or head~N)"
            )
        ]
        for (arguments, status, message) in cases {
            let result = try Run.docctl(arguments, in: directory.url)
            #expect(result.status == status, "\(arguments)")
            #expect(result.standardError == message + "\n", "\(arguments)")
            #expect(result.output.isEmpty, "\(arguments)")
        }
        #expect(try Data(contentsOf: bundle) == before)
        #expect(Fixtures.listing(directory.url) == ["p.dkproj"])
    }

    @Test func anEditThatChangesNothingMakesNoVersion() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "Same"], in: directory.url)
        let result = try Run.docctl(["set", "p.dkproj", "name", "Same"], in: directory.url)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("no change: p.dkproj stays at version 1 ("))
        #expect(
            try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj")).manifest.versions.count
                == 1)
    }

    @Test func unsetRemovesTasksByIdOrPosition() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        for title in ["a", "b", "c"] {
            try Run.docctl(["set", "p.dkproj", "tasks[+]", #"{"title": "\#(title)"}"#], in: directory.url)
        }
        let idOfB = try Run.docctl(["get", "p.dkproj", "tasks[1].id"], in: directory.url).output.trimmingCharacters(
            in: .newlines)
        #expect(try Run.docctl(["unset", "p.dkproj", "tasks[id=\(idOfB)]"], in: directory.url).status == 0)
        #expect(try Run.docctl(["unset", "p.dkproj", "tasks[0]"], in: directory.url).status == 0)
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks", "--json"], in: directory.url).output.contains(#""title" : "c""#)
        )
        #expect(try Run.docctl(["get", "p.dkproj", "tasks[1]"], in: directory.url).status == 65)
    }

    @Test func attachStoresTheFileOnceAndExtractGivesItBack() throws {
        let directory = try TemporaryDirectory()
        let picture = try Fixtures.write(Fixtures.noise(200_000), to: "cover.png", in: directory.url)
        try Run.docctl(["new", "p.dkproj"], in: directory.url)
        let attach = try Run.docctl(["attach", "p.dkproj", "cover.png"], in: directory.url)
        #expect(attach.status == 0, "\(attach.standardError)")
        #expect(try Run.docctl(["get", "p.dkproj", "thumbnail.mediaType"], in: directory.url).output == "image/png\n")
        #expect(
            try Run.docctl(["attach", "p.dkproj", "cover.png", "--as", "thumbnail"], in: directory.url).output
                .hasPrefix("no change"))
        #expect(try Run.docctl(["set", "p.dkproj", "name", "Renamed"], in: directory.url).status == 0)

        let extract = try Run.docctl(["extract", "p.dkproj", "thumbnail", "-o", "out.png"], in: directory.url)
        #expect(extract.output == "wrote 200000 bytes to out.png\n")
        #expect(try Data(contentsOf: directory.url.appendingPathComponent("out.png")) == Data(contentsOf: picture))
        let refused = try Run.docctl(["extract", "p.dkproj", "thumbnail", "-o", "out.png"], in: directory.url)
        expectFailure(refused, status: 73, containing: "out.png: already exists (use --force to replace it)")
        #expect(
            try Run.docctl(["extract", "p.dkproj", "thumbnail", "-o", "out.png", "--force"], in: directory.url).status
                == 0)
        let piped = try Run.docctl(["extract", "p.dkproj", "thumbnail", "--version", "2", "-o", "-"], in: directory.url)
        #expect(piped.standardOutput == (try Data(contentsOf: picture)))

        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        #expect(try bundle.manifest.objects.values.filter { $0.size == 200_000 }.count == 1)
        let unknown = try Run.docctl(["attach", "p.dkproj", "nothing.png"], in: directory.url)
        expectFailure(unknown, status: 66, containing: "nothing.png: cannot read: No such file or directory")
    }

    @Test func versionsAreNamedByNumberIdPrefixOrHeadRelative() throws {
        let directory = try TemporaryDirectory()
        try Run.docctl(["new", "p.dkproj", "--name", "v1"], in: directory.url)
        try Run.docctl(["set", "p.dkproj", "name", "v2"], in: directory.url)
        try Run.docctl(["set", "p.dkproj", "name", "v3"], in: directory.url)
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        let second = try bundle.manifest.versions[1]
        for name in ["2", String(second.id.prefix(6)), second.id, "head~1", "HEAD~1"] {
            #expect(
                try Run.docctl(["get", "p.dkproj", "name", "--version", name], in: directory.url).output == "v2\n",
                "\(name)")
        }
        #expect(try Run.docctl(["get", "p.dkproj", "name", "--version", "head"], in: directory.url).output == "v3\n")
        #expect(try Run.docctl(["get", "p.dkproj", "name", "--version", "head~5"], in: directory.url).status == 65)
    }
}
