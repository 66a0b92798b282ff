import Foundation
import Testing

@testable import DocumentKit

/// `show`: a version's log entry and its changes, text and --json exactly.
@Suite struct ShowCommandTests {
    private let writer = "DocumentKit \(DocumentKitInfo.version)"

    @Test func showPrintsTheLogEntryAndTheChangesWithTheirValues() throws {
        let directory = try TemporaryDirectory()
        try Run.succeeding(["new", "p.dkproj", "--name", "Garden", "--author", "ada"], in: directory.url)
        try Run.succeeding(
            ["set", "p.dkproj", "name", "Allotment", "-m", "Rename\n\nA better name", "--author", "ada"],
            in: directory.url)
        let versions = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj")).manifest
            .versions
        let head = try Run.succeeding(["show", "p.dkproj"], in: directory.url)
        #expect(
            head.output == """
                version 2  \(versions[1].id)
                parent   \(versions[0].id)
                date     2026-01-01T00:00:00Z
                author   ada
                schema   4.0.0  (\(writer))

                    Rename
                \("    ")
                    A better name

                --- version 1 (\(versions[0].shortID)) 2026-01-01T00:00:00Z Create Garden
                +++ version 2 (\(versions[1].shortID)) 2026-01-01T00:00:00Z Rename
                ~ name: "Garden" -> "Allotment"

                """)
        #expect(try Run.succeeding(["show", "p.dkproj", "2"], in: directory.url).output == head.output)
        // The first version is compared with nothing: all it holds is added.
        let first = try Run.succeeding(["show", "p.dkproj", "head~1"], in: directory.url)
        #expect(
            first.output == """
                version 1  \(versions[0].id)
                parent   none
                date     2026-01-01T00:00:00Z
                author   ada
                schema   4.0.0  (\(writer))

                    Create Garden

                --- none
                +++ version 1 (\(versions[0].shortID)) 2026-01-01T00:00:00Z Create Garden
                + createdAt: "2026-01-01T00:00:00Z"
                + isArchived: false
                + name: "Garden"
                + summary: ""
                + tasks: []

                """)
        let json = try Run.succeeding(["show", "p.dkproj", "1", "--json"], in: directory.url)
        #expect(
            json.output == """
                {
                  "blobs" : [],
                  "changes" : [
                    {
                      "kind" : "added",
                      "new" : "2026-01-01T00:00:00Z",
                      "path" : "createdAt"
                    },
                    {
                      "kind" : "added",
                      "new" : false,
                      "path" : "isArchived"
                    },
                    {
                      "kind" : "added",
                      "new" : "Garden",
                      "path" : "name"
                    },
                    {
                      "kind" : "added",
                      "new" : "",
                      "path" : "summary"
                    },
                    {
                      "kind" : "added",
                      "new" : [],
                      "path" : "tasks"
                    }
                  ],
                  "version" : {
                    "author" : "ada",
                    "created" : "2026-01-01T00:00:00Z",
                    "id" : "\(versions[0].id)",
                    "message" : "Create Garden",
                    "number" : 1,
                    "parents" : [],
                    "schema" : "4.0.0",
                    "writer" : "\(writer)"
                  }
                }

                """)
        expectFailure(
            try Run.docctl(["show", "p.dkproj", "7"], in: directory.url), status: 65,
            containing: "error: p.dkproj: no version '7' (versions 1–2; use a number, an id prefix, head or head~N)\n")
        expectFailure(
            try Run.docctl(["show", "nope.dkproj"], in: directory.url), status: 66,
            containing: "error: nope.dkproj: cannot open: No such file or directory\n")
    }

    @Test func showOfAMergeComparesItWithItsFirstParentAndNamesBoth() throws {
        let directory = try TemporaryDirectory()
        try Run.succeeding(["new", "a.dkproj", "--name", "Garden", "--author", "ada"], in: directory.url)
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("b.dkproj"))
        try Run.succeeding(["set", "a.dkproj", "summary", "Ours", "-m", "Ours", "--author", "ada"], in: directory.url)
        try Fixtures.write(Fixtures.png, to: "photo.png", in: directory.url)
        try Run.succeeding(["attach", "b.dkproj", "photo.png", "-m", "Theirs", "--author", "bob"], in: directory.url)
        try Run.succeeding(["pull", "a.dkproj", "b.dkproj", "--author", "ada"], in: directory.url)
        let versions = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("a.dkproj")).manifest
            .versions
        let digest = ObjectDigest.of(Fixtures.png).hex
        let show = try Run.succeeding(["show", "a.dkproj"], in: directory.url)
        #expect(
            show.output == """
                version 4  \(versions[3].id)
                merge    \(versions[1].id) \(versions[2].id)
                date     2026-01-01T00:00:00Z
                author   ada
                schema   4.0.0  (\(writer))

                    Merge b.dkproj at \(versions[2].shortID)

                --- version 2 (\(versions[1].shortID)) 2026-01-01T00:00:00Z Ours
                +++ version 4 (\(versions[3].shortID)) 2026-01-01T00:00:00Z Merge b.dkproj at \(versions[2].shortID)
                + thumbnail: {"$blob":"\(digest)","mediaType":"image/png","name":"photo.png","size":67}
                + blob \(digest.prefix(12)) (67 B)

                """)
        let json = try JSONValue.parse(
            Data(try Run.succeeding(["show", "a.dkproj", "--json"], in: directory.url).output.utf8))
        guard case .object(let members) = json, case .object(let parent)? = members["parent"],
            case .object(let version)? = members["version"]
        else {
            Issue.record("not a version detail: \(json)")
            return
        }
        #expect(parent["id"] == .string(versions[1].id))
        #expect(version["parents"] == .array([.string(versions[1].id), .string(versions[2].id)]))
    }

    @Test func showOfAVersionWhoseParentWasPrunedComparesItWithNothing() throws {
        let directory = try TemporaryDirectory()
        try Run.succeeding(["new", "p.dkproj", "--name", "Garden", "--author", "ada"], in: directory.url)
        try Run.succeeding(["set", "p.dkproj", "summary", "Beds", "--author", "ada"], in: directory.url)
        try Run.succeeding(["prune", "p.dkproj", "--keep", "1"], in: directory.url)
        let versions = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj")).manifest
            .versions
        let show = try Run.succeeding(["show", "p.dkproj"], in: directory.url)
        #expect(
            show.output.contains(
                """

                --- none (parent \(versions[0].parents[0].prefix(12)) was pruned)
                +++ version 2 (\(versions[0].shortID)) 2026-01-01T00:00:00Z Set summary
                + createdAt: "2026-01-01T00:00:00Z"

                """), "\(show.output)")
    }
}
