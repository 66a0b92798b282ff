import Foundation
import Testing

@testable import DocumentKit

/// `[*]` in get, set and unset: every element, one value a line or one version.
@Suite struct WildcardCommandTests {
    /// `p.dkproj`, version 2: three tasks with fixed ids, the last with tags.
    private func makeBundle(in directory: URL) throws {
        try Run.docctl(["new", "p.dkproj", "--name", "Garden", "--author", "ada"], in: directory)
        let tasks = [
            #"{"id": "00000000-0000-4000-8000-000000000001", "title": "Dig", "tags": ["soil"]}"#,
            #"{"id": "00000000-0000-4000-8000-000000000002", "title": "Sow"}"#,
            #"{"id": "00000000-0000-4000-8000-000000000003", "title": "Water", "tags": ["daily", "soil"]}"#
        ]
        let set = try Run.docctl(
            ["set", "p.dkproj", "tasks", "[\(tasks.joined(separator: ","))]", "--author", "ada"], in: directory)
        #expect(set.status == 0, "\(set.standardError)")
    }

    @Test func getPrintsEveryMatchOneALineOrOneJSONArray() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        let titles = try Run.docctl(["get", "p.dkproj", "tasks[*].title"], in: directory.url)
        #expect(titles.status == 0 && titles.output == "Dig\nSow\nWater\n")
        let json = try Run.docctl(["get", "p.dkproj", "tasks[*].title", "--json"], in: directory.url)
        #expect(json.output == "[\n  \"Dig\",\n  \"Sow\",\n  \"Water\"\n]\n")
        // Values that are not strings are one line of JSON each; tasks without tags are left out.
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[*].tags"], in: directory.url).output
                == "[\"soil\"]\n[\"daily\",\"soil\"]\n")
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[*].tags[*]"], in: directory.url).output == "soil\ndaily\nsoil\n")
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[*].tags[0]", "--version", "2"], in: directory.url).output
                == "soil\ndaily\n")
        // One match is still a list: the shape follows the path, not the data.
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[*].tags[1]", "--json"], in: directory.url).output
                == "[\n  \"soil\"\n]\n")
        // A path without [*] prints as it always has.
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[2].tags"], in: directory.url).output
                == "[\n  \"daily\",\n  \"soil\"\n]\n")
    }

    @Test func setChangesEveryMatchAsOneVersion() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        let url = directory.url.appendingPathComponent("p.dkproj")
        let result = try Run.docctl(
            ["set", "p.dkproj", "tasks[*].status", "done", "--author", "ada"], in: directory.url)
        let bundle = try DocumentBundle(contentsOf: url)
        #expect(result.status == 0)
        #expect(result.output == "saved version 3 (\(bundle.headVersion.shortID)) of p.dkproj: Set tasks[*].status\n")
        #expect(try bundle.manifest.versions.count == 3)
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[*].status"], in: directory.url).output == "done\ndone\ndone\n")
        #expect(
            bundle.headVersion.changes?.paths.map(\.path)
                == (1...3).map { "tasks[id=00000000-0000-4000-8000-00000000000\($0)].status" })

        // The same as setting each in turn, to the byte of the document.
        let other = try TemporaryDirectory()
        try makeBundle(in: other.url)
        for index in 0..<3 { try Run.docctl(["set", "p.dkproj", "tasks[\(index)].status", "done"], in: other.url) }
        #expect(
            try Run.docctl(["cat", "p.dkproj"], in: other.url).standardOutput
                == Run.docctl(["cat", "p.dkproj"], in: directory.url).standardOutput)

        // Every element must take it, as in jq: Sow has no tags to set.
        expectFailure(
            try Run.docctl(["set", "p.dkproj", "tasks[*].tags[*]", "garden"], in: directory.url), status: 65,
            containing: "error: p.dkproj: no value at tasks[1].tags: no such field\n")
        #expect(try Run.docctl(["set", "p.dkproj", "tasks[1].tags", "[]"], in: directory.url).status == 0)
        #expect(try Run.docctl(["set", "p.dkproj", "tasks[*].tags[+]", "garden"], in: directory.url).status == 0)
        #expect(try Run.docctl(["set", "p.dkproj", "tasks[*].tags[*]", "garden"], in: directory.url).status == 0)
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[*].tags[*]"], in: directory.url).output
                == String(repeating: "garden\n", count: 6))
        // A member is made where it is missing, as set makes one.
        #expect(try Run.docctl(["set", "p.dkproj", "tasks[*].notes", "see the plan"], in: directory.url).status == 0)
        #expect(
            try Run.docctl(["get", "p.dkproj", "tasks[*].notes"], in: directory.url).output
                == "see the plan\nsee the plan\nsee the plan\n")
    }

    @Test func unsetRemovesEveryMatchThatIsThere() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        let result = try Run.docctl(["unset", "p.dkproj", "tasks[*].tags", "--json"], in: directory.url)
        #expect(result.status == 0)
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        #expect(bundle.headVersion.message == "Remove tasks[*].tags")
        #expect(
            bundle.headVersion.changes?.paths.map(\.path) == [
                "tasks[id=00000000-0000-4000-8000-000000000001].tags",
                "tasks[id=00000000-0000-4000-8000-000000000003].tags"
            ])
        expectFailure(
            try Run.docctl(["get", "p.dkproj", "tasks[*].tags"], in: directory.url), status: 65,
            containing: "error: p.dkproj: no value at tasks[*].tags: nothing matches (tasks[0].tags: no such field)\n")
    }

    @Test func wildcardsThatMatchNothingOrCannotApplyAreRefusedAndWriteNothing() throws {
        let directory = try TemporaryDirectory()
        try makeBundle(in: directory.url)
        try Run.docctl(["new", "empty.dkproj", "--name", "Empty"], in: directory.url)
        let bundles = ["p.dkproj", "empty.dkproj"].map { directory.url.appendingPathComponent($0) }
        let before = try bundles.map { try Data(contentsOf: $0) }
        let cases: [([String], Int32, String)] = [
            (
                ["get", "p.dkproj", "tasks[*].dueDate"], 65,
                "error: p.dkproj: no value at tasks[*].dueDate: nothing matches (tasks[0].dueDate: no such field)"
            ),
            (
                ["get", "empty.dkproj", "tasks[*].title"], 65,
                "error: empty.dkproj: no value at tasks[*].title: nothing matches (tasks[*]: the array is empty)"
            ),
            (
                ["get", "p.dkproj", "name[*]"], 65,
                "error: p.dkproj: no value at name[*]: nothing matches (name[*]: name is a string, not an array)"
            ),
            (
                ["set", "empty.dkproj", "tasks[*].status", "done"], 65,
                "error: empty.dkproj: no value at tasks[*]: the array is empty"
            ),
            (["set", "p.dkproj", "columns[*].name", "x"], 65, "error: p.dkproj: no value at columns: no such field"),
            (
                ["set", "p.dkproj", "tasks[*].status", "finished"], 65,
                """
                error: p.dkproj: tasks[0].status: 'finished' is not a status (todo, inProgress or done) \
                (org.documentkit.project schema 4.0.0)
                """
            ),
            (
                ["unset", "p.dkproj", "tasks[*].dueDate"], 65,
                """
                error: p.dkproj: no value at tasks[*].dueDate: nothing matches (tasks[0].dueDate: has no field \
                'dueDate')
                """
            ),
            (
                ["unset", "p.dkproj", "tasks[*]"], 64,
                """
                error: p.dkproj: tasks[*]: [*] at the end would remove every element; to empty the array, set \
                tasks to []
                """
            ),
            (
                ["unset", "p.dkproj", "tasks[*].tags[*]"], 64,
                """
                error: p.dkproj: tasks[*].tags[*]: [*] at the end would remove every element; to empty the array, \
                set tasks[*].tags to []
                """
            ),
            (
                ["extract", "p.dkproj", "tasks[*]", "-o", "-"], 64,
                "error: p.dkproj: tasks[*]: a path with [*] names several values; here it must name one"
            ),
            (["get", "p.dkproj", "tasks[*"], 64, "error: invalid path 'tasks[*': expected ']' at character 8")
        ]
        for (arguments, status, message) in cases {
            let result = try Run.docctl(arguments, in: directory.url)
            #expect(result.status == status, "\(arguments): \(result.standardError)")
            #expect(result.standardError == message + "\n", "\(arguments)")
            #expect(result.output.isEmpty, "\(arguments)")
        }
        #expect(try bundles.map { try Data(contentsOf: $0) } == before, "nothing written")
        #expect(Fixtures.listing(directory.url) == ["empty.dkproj", "p.dkproj"])
    }
}
