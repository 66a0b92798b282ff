import Foundation
import Testing

@testable import DocumentKit

/// `info` of one bundle and of several.
@Suite struct InfoCommandTests {
    /// `info`'s text for the bundle at `name`, as one bundle's `info` prints it.
    private func info(_ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        let bundle = try DocumentBundle(contentsOf: url)
        let head = bundle.headVersion
        let summary = try BundleSummary(of: url)
        return """
            bundle:    \(name)
            type:      org.documentkit.project (application/vnd.documentkit.project+zip), format 3
            head:      version \(head.number) (\(head.shortID)), 2026-01-01T00:00:00Z by \(head.author): \(head.message)
            schema:    4.0.0
            versions:  \(try bundle.manifest.versions.count)
            objects:   \(summary.objectCount), \(bytes(summary.objectBytes)) (\(bytes(summary.storedBytes)) stored)
            document:  \(bytes(summary.documentBytes)), 0 blobs
            state:     0 keys
            file:      \(bytes(summary.fileBytes))

            """
    }

    /// Sizes as docctl prints them.
    private func bytes(_ count: UInt64) -> String {
        count < 1000 ? "\(count) B" : String(format: "%.1f KB", Double(count) / 1000)
    }

    @Test func infoOfOneBundleIsAsItWas() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.twoCopies(in: directory.url)
        #expect(
            try Run.succeeding(["info", "a.dkproj"], in: directory.url).output == info("a.dkproj", in: directory.url))
        let json = try Run.succeeding(["info", "a.dkproj", "--json"], in: directory.url).output
        #expect(json.hasPrefix("{\n  \"blobCount\" : 0,\n"), "one bundle: an object, as before")
    }

    @Test func infoOfSeveralBundlesShowsEachInTurnAndGoesOnPastOneThatFails() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.twoCopies(in: directory.url)
        let both = try Run.succeeding(["info", "a.dkproj", "b.dkproj"], in: directory.url)
        #expect(try both.output == info("a.dkproj", in: directory.url) + "\n" + info("b.dkproj", in: directory.url))
        #expect(both.standardError.isEmpty)

        // One missing: its error line, the others shown, and its status at the end.
        try Data("not a zip".utf8).write(to: directory.url.appendingPathComponent("bad.dkproj"))
        let failing = try Run.docctl(["info", "a.dkproj", "nope.dkproj", "b.dkproj"], in: directory.url)
        #expect(failing.status == 66)
        #expect(failing.output == both.output)
        #expect(failing.standardError == "error: nope.dkproj: cannot open: No such file or directory\n")
        let two = try Run.docctl(["info", "bad.dkproj", "a.dkproj", "nope.dkproj"], in: directory.url)
        #expect(two.status == 65, "the first failure's status")
        #expect(try two.output == info("a.dkproj", in: directory.url))
        #expect(
            two.standardError.split(separator: "\n").count == 2 && two.standardError.hasPrefix("error: bad.dkproj: "))
        #expect(two.standardError.hasSuffix("error: nope.dkproj: cannot open: No such file or directory\n"))
    }

    @Test func infoOfSeveralBundlesAsJSONIsAnArray() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.twoCopies(in: directory.url)
        let a = try Run.succeeding(["info", "a.dkproj", "--json"], in: directory.url).output
        let b = try Run.succeeding(["info", "b.dkproj", "--json"], in: directory.url).output
        func indented(_ object: String) -> String {
            object.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
                separator: "\n")
        }
        let both = try Run.succeeding(["info", "a.dkproj", "b.dkproj", "--json"], in: directory.url)
        #expect(both.output == "[\n\(indented(a)),\n\(indented(b))\n]\n")
        let failing = try Run.docctl(["info", "nope.dkproj", "b.dkproj", "--json"], in: directory.url)
        #expect(failing.status == 66 && failing.output == "[\n\(indented(b))\n]\n")
        let none = try Run.docctl(["info", "nope.dkproj", "none.dkproj", "--json"], in: directory.url)
        #expect(none.status == 66 && none.output == "[]\n" && none.standardError.split(separator: "\n").count == 2)
    }
}
