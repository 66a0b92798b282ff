import DocumentKit
import Foundation
import Testing

@testable import SampleProject

/// `export --format html`: the access copy, a static site of the document, its files and
/// its history (FORMAT.md §7, "HTML"). What a browser makes of it is HTMLBrowserTests'.
@Suite struct HTMLExportTests {
    static let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    static let hostileFile = "<img src=x onerror=alert(3)>.png"

    /// A copy of the sample board with a task titled to break out of the page, a blob named
    /// so, a link in its notes and a message with markup.
    static func hostileBoard(in directory: TemporaryDirectory) throws -> URL {
        let board = try Fixtures.copySampleDoc("board.dkproj", to: directory)
        try Run.succeeding(
            [
                "set", board.path, "tasks[+]",
                #"{"title": "\#(hostile)", "notes": "See https://example.com/page and <b>this</b>"}"#,
                "-m", "Add <b>hostile</b> \(hostile)"
            ], in: directory.url)
        try Fixtures.png.write(to: directory.url.appendingPathComponent(hostileFile))
        try Run.succeeding(["attach", board.path, hostileFile, "--as", "tasks[4].attachments[+]"], in: directory.url)
        return board
    }

    @Test func theSampleExportsAsASiteOfItsDocumentFilesAndHistory() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let site = directory.path("site")
        let export = try Run.docctl(["export", garden.path, "--format", "html", "-o", site])
        #expect(export.status == 0, "\(export.standardError)")
        let listing = SiteLinks.files(in: URL(fileURLWithPath: site))
        #expect(
            export.output.hasPrefix("exported version 8 of \(garden.path) to \(site) (html, \(listing.count) files, ")
                && export.output.hasSuffix("; open \(site)/index.html\n"), "\(export.output)")
        for expected in [
            "index.html", "files.html", "history.html", "style.css", "filter.js", "blobs/thumbnail.png",
            "versions/1/index.html", "versions/8/index.html"
        ] {
            #expect(listing.contains(expected), "\(expected) in \(listing)")
        }
        #expect(!listing.contains("versions/7/document.html"), "one version's document without --all-versions")
        let index = try String(contentsOfFile: site + "/index.html", encoding: .utf8)
        for text in ["<h1>Garden</h1>", "Vegetables for the summer", "Buy seeds", "Dig the beds", "Plant tomatoes"] {
            #expect(index.contains(text), "\(text)")
        }
        #expect(index.contains(#"<img src="blobs/thumbnail.png" alt="thumbnail.png""#))
        #expect(index.contains("image/png · 4.9 KB"))
        let history = try String(contentsOfFile: site + "/history.html", encoding: .utf8)
        for version in try BundleSummary.log(of: garden) {
            #expect(history.contains(HTMLText.escape(String(version.message.prefix { $0 != "\n" }))))
            #expect(history.contains(#"href="versions/\#(version.number)/index.html""#))
        }
        // The head's export checks what validate checks; verify's rebuilding of every
        // version's document is left to an export of every version (which reads them all).
        #expect(
            history.contains(
                """
                Every id, signature and record was checked as docctl validate checks them (docctl verify also \
                rebuilds the document of every version); nothing was altered.
                """))
        let versionPage = try String(contentsOfFile: site + "/versions/8/index.html", encoding: .utf8)
        #expect(versionPage.contains(#"<link rel="stylesheet" href="../../style.css">"#))
        #expect(try SiteLinks.unresolved(in: URL(fileURLWithPath: site)) == [])
    }

    @Test func hostileTextIsShownAsTextAndNothingLeavesTheSite() throws {
        let directory = try TemporaryDirectory()
        let board = try Self.hostileBoard(in: directory)
        let site = directory.url.appendingPathComponent("site")
        try Run.succeeding(["export", board.path, "--format", "html", "-o", site.path], in: directory.url)
        let blob = site.appendingPathComponent("blobs/\(Self.hostileFile)")
        #expect(FileManager.default.fileExists(atPath: blob.path), "the blob keeps its name, inside blobs/")
        for page in SiteLinks.pages(in: site) {
            let html = try String(contentsOf: site.appendingPathComponent(page), encoding: .utf8)
            #expect(!html.contains("<script>"), "\(page)")
            #expect(!html.contains("<img src=x"), "\(page)")
            #expect(SiteLinks.eventHandlers(in: html) == [], "\(page)")
            #expect(!html.contains("<b>"), "\(page)")
            // The one script is the site's own file.
            #expect(html.components(separatedBy: "<script").count == 2, "\(page)")
            for target in SiteLinks.targets(in: html) {
                #expect(!target.contains(":"), "\(page): \(target)")
            }
        }
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(HTMLText.escape(Self.hostile)))
        #expect(index.contains("See https://example.com/page and &lt;b&gt;this&lt;/b&gt;"), "a link is shown, not made")
        #expect(index.contains(#"alt="&lt;img src=x onerror=alert(3)&gt;.png""#))
        #expect(index.contains(#"src="blobs/%3Cimg%20src%3Dx%20onerror%3Dalert%283%29%3E.png""#))
        let history = try String(contentsOf: site.appendingPathComponent("history.html"), encoding: .utf8)
        #expect(history.contains("Add &lt;b&gt;hostile&lt;/b&gt; \(HTMLText.escape(Self.hostile))"))
        #expect(try SiteLinks.unresolved(in: site) == [])
    }

    /// docctl edits a note as schema-less JSON, so a blob's recorded name can be anything:
    /// the site names the file by the readable-name rule, and shows the name as text.
    @Test func aNameFromTheBundleNeverLeavesTheSite() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.png.write(to: directory.url.appendingPathComponent("p.png"))
        for arguments in [["new", "n.note", "--name", "N"], ["attach", "n.note", "p.png"]] {
            #expect(try Run.notectl(arguments, in: directory.url).status == 0)
        }
        try Run.succeeding(["set", "n.note", "picture.name", #""../../evil.png""#], in: directory.url)
        let site = directory.url.appendingPathComponent("site/inner")
        try FileManager.default.createDirectory(
            at: site.deletingLastPathComponent(), withIntermediateDirectories: false)
        try Run.succeeding(["export", "n.note", "--format", "html", "-o", site.path], in: directory.url)
        let digest = ObjectDigest.of(Fixtures.png).hex
        #expect(SiteLinks.files(in: site).filter { $0.hasPrefix("blobs/") } == ["blobs/\(digest)"])
        #expect(Fixtures.listing(site.deletingLastPathComponent()) == ["inner"])
        #expect(!FileManager.default.fileExists(atPath: directory.path("evil.png")))
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<img src="blobs/\#(digest)" alt="../../evil.png""#))
        #expect(try SiteLinks.unresolved(in: site) == [])
    }

    @Test func theEscapingFunctionLeavesNoMarkup() {
        #expect(
            HTMLText.escape(#"<a href="x">'&'</a>"#) == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(HTMLText.escape("plain text, ünïcode ✓") == "plain text, ünïcode ✓")
        #expect(HTMLText.escape("a\u{0}b\u{1B}c\td\ne") == "a\u{FFFD}b\u{FFFD}c\td\ne")
    }

    @Test func theFormatIsTakenFromTheNameAndAZipHoldsTheSite() throws {
        #expect(ExportFormat(fileName: "garden.html") == .html)
        #expect(ExportFormat(fileName: "garden.HTML.zip") == .html)
        #expect(ExportFormat(fileName: "garden.zip") == .zip)
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        try Run.succeeding(["export", garden.path, "-o", "garden.html"], in: directory.url)
        #expect(FileManager.default.fileExists(atPath: directory.path("garden.html/index.html")))
        for (name, arguments) in [("garden.html.zip", []), ("site.zip", ["--format", "html"])] {
            let export = try Run.succeeding(["export", garden.path, "-o", name] + arguments, in: directory.url)
            #expect(!export.output.contains("open "), "\(export.output)")
            let entries = try ExternalTool.python(
                "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
                [directory.path(name)]
            ).output.split(separator: "\n").map(String.init)
            #expect(entries.contains("index.html") && entries.contains("blobs/thumbnail.png"), "\(entries)")
            #expect(entries.contains("versions/8/index.html"))
        }
        // The same bytes, to standard output.
        let streamed = try Run.succeeding(["export", garden.path, "--format", "html", "-o", "-"], in: directory.url)
        #expect(streamed.standardOutput == (try Data(contentsOf: URL(fileURLWithPath: directory.path("site.zip")))))
        expectFailure(
            try Run.docctl(["export", garden.path, "-o", "garden.html"], in: directory.url), status: 73,
            containing: "garden.html: already exists")
        try Run.succeeding(["export", garden.path, "-o", "garden.html", "--force"], in: directory.url)
        expectFailure(
            try Run.docctl(["export", garden.path, "--format", "html", "--with-html", "-o", "x"], in: directory.url),
            status: 64, containing: "--with-html adds a site to a bag: --format html writes the site alone")
        expectFailure(
            try Run.docctl(
                ["export", garden.path, "--format", "zip", "--trusted", "t", "-o", "x.zip"], in: directory.url),
            status: 64, containing: "--trusted names signers in a site: it goes with --format html")
        let dry = try Run.succeeding(["export", garden.path, "-o", "dry.html", "--dry-run"], in: directory.url)
        #expect(dry.output.hasPrefix("would export version 8 of ") && dry.output.hasSuffix("; nothing was written\n"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("dry.html")))
    }

    @Test func everyVersionsDocumentWithAllVersions() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let site = directory.url.appendingPathComponent("all")
        try Run.succeeding(
            ["export", garden.path, "--format", "html", "--all-versions", "-o", site.path], in: directory.url)
        let listing = SiteLinks.files(in: site)
        for number in 1...7 {
            #expect(listing.contains("versions/\(number)/document.html"), "\(number)")
            #expect(listing.contains("versions/\(number)/files.html"), "\(number)")
        }
        #expect(!listing.contains("versions/8/document.html"), "the exported version's is index.html")
        let first = try String(contentsOf: site.appendingPathComponent("versions/1/document.html"), encoding: .utf8)
        #expect(first.contains("<h1>Garden</h1>") && first.contains(#"href="../../index.html""#))
        let page = try String(contentsOf: site.appendingPathComponent("versions/1/index.html"), encoding: .utf8)
        #expect(
            page.contains(#"href="document.html">the document at version 1</a>"#)
                || page.contains("versions/1/document.html"))
        // Every document is read, so every one is checked, as verify checks them.
        let history = try String(contentsOf: site.appendingPathComponent("history.html"), encoding: .utf8)
        #expect(history.contains("Every object, id and signature was checked; nothing was altered."))
        #expect(try SiteLinks.unresolved(in: site) == [])
    }

    /// The pages are set aside in `TMPDIR` while the site is made, in a file removed as it is
    /// created: nothing stays there. A `TMPDIR` that cannot hold it is one clear error, and
    /// no site.
    @Test func thePagesWaitInTMPDIRAndNothingStaysThere() throws {
        let directory = try TemporaryDirectory()
        let garden = try Fixtures.copySampleDoc("garden.dkproj", to: directory)
        let scratch = directory.url.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        let site = directory.path("site")
        let export = try Run.docctl(
            ["export", garden.path, "--format", "html", "-o", site], environment: ["TMPDIR": scratch.path])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
        #expect(try String(contentsOfFile: site + "/index.html", encoding: .utf8).contains("Plant tomatoes"))

        let missing = directory.path("no-such-folder")
        let refused = try Run.docctl(
            ["export", garden.path, "--format", "html", "-o", directory.path("second")],
            environment: ["TMPDIR": missing])
        #expect(refused.status == 73, "\(refused.standardError)")
        #expect(
            refused.standardError.hasPrefix("error: \(missing): cannot create a temporary file: "),
            "\(refused.standardError)")
        #expect(refused.standardError.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.path("second")))
    }

    @Test func aLongListIsPagedAndItsLinksFindTheirPage() throws {
        let directory = try TemporaryDirectory()
        var project = Fixtures.project(taskCount: 1_201)
        // The last task waits for the first, two pages back.
        project.tasks[1_200].blockedBy = [project.tasks[0].id]
        let url = directory.url.appendingPathComponent("big.dkproj")
        try DocumentController(newDocument: project, at: url).save(message: "Many tasks", author: "ada")
        let site = directory.url.appendingPathComponent("site")
        _ = try BundleExporter.export(url, format: .html, to: site, replace: false)
        let listing = SiteLinks.files(in: site)
        #expect(
            listing.contains("tasks-2.html") && listing.contains("tasks-3.html") && !listing.contains("tasks-4.html"))
        let third = try String(contentsOf: site.appendingPathComponent("tasks-3.html"), encoding: .utf8)
        #expect(third.contains("Task 1200") && !third.contains("Task 999<"))
        #expect(third.contains(#"href="index.html#task-\#(project.tasks[0].id.uuidString)""#))
        let first = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(first.contains(#"href="tasks-3.html#task-\#(project.tasks[1_200].id.uuidString)""#), "what it blocks")
        #expect(first.contains("Items 1–500 of 1201, page 1 of 3"))
        for page in SiteLinks.pages(in: site) {
            let size = try FileManager.default.attributesOfItem(atPath: site.appendingPathComponent(page).path)[.size]
            #expect((size as? Int ?? .max) < 5_000_000, "\(page)")
        }
        #expect(try SiteLinks.unresolved(in: site) == [])
    }

    @Test func aMergeIsDrawnWithBothParents() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.twoCopies(in: directory.url)
        try Run.succeeding(["set", "a.dkproj", "summary", "Ours", "-m", "Ours", "--author", "ada"], in: directory.url)
        try Run.succeeding(["pull", "a.dkproj", "b.dkproj", "-m", "Merge Bob's", "--author", "ada"], in: directory.url)
        let versions = try BundleSummary.log(of: directory.url.appendingPathComponent("a.dkproj"))
        let merge = try #require(versions.first)
        #expect(merge.parents.count == 2)
        try Run.succeeding(["export", "a.dkproj", "-o", "a.html"], in: directory.url)
        let history = try String(contentsOfFile: directory.path("a.html/history.html"), encoding: .utf8)
        let numbers = merge.parents.map { id in versions.first { $0.id == id }!.number }
        #expect(
            history.contains(
                #"merge of <a href="versions/\#(numbers[0])/index.html">version \#(numbers[0])</a> and <a href="versions/\#(numbers[1])/index.html">version \#(numbers[1])</a>"#
            ), "\(history)")
        #expect(history.contains("│╲"), "the lane to the second parent opens")
        let page = try String(
            contentsOfFile: directory.path("a.html/versions/\(merge.number)/index.html"), encoding: .utf8)
        #expect(page.contains("<dt>Merge of</dt>") && page.contains(", the version merged into."))
    }

    @Test func aTypeWithoutItsOwnPageIsATreeAndNotectlsTypeHasItsOwn() throws {
        let directory = try TemporaryDirectory()
        try Fixtures.png.write(to: directory.url.appendingPathComponent("p.png"))
        for arguments in [
            ["new", "n.note", "--name", "Groceries"], ["set", "n.note", "text", "milk, <eggs>"],
            ["attach", "n.note", "p.png"]
        ] {
            let result = try Run.notectl(arguments, in: directory.url)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
        }
        // notectl knows the Note type, which renders itself.
        #expect(try Run.notectl(["export", "n.note", "-o", "own.html"], in: directory.url).status == 0)
        let own = try String(contentsOfFile: directory.path("own.html/index.html"), encoding: .utf8)
        #expect(own.contains("<h1>Groceries</h1>"))
        #expect(own.contains(#"<article class="note-text"><p class="lead">milk, &lt;eggs&gt;</p></article>"#))
        #expect(own.contains(#"<img src="blobs/p.png" alt="p.png""#))
        // docctl does not: the note is a tree of its JSON.
        try Run.succeeding(["export", "n.note", "-o", "tree.html"], in: directory.url)
        let tree = try String(contentsOfFile: directory.path("tree.html/index.html"), encoding: .utf8)
        #expect(tree.contains("<h1>Groceries</h1>"))
        #expect(tree.contains(#"<details class="tree" open>"#) || tree.contains(#"<span class="key">text</span>"#))
        #expect(tree.contains(#"<span class="key">text</span>: <span class="string">milk, &lt;eggs&gt;</span>"#))
        #expect(tree.contains(#"<img src="blobs/p.png" alt="p.png""#))
        #expect(try SiteLinks.unresolved(in: directory.url.appendingPathComponent("tree.html")) == [])
    }

    @Test func signaturesShowWhoSignedEachVersion() throws {
        let directory = try TemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": directory.path("config")]
        try Run.succeeding(["new", "p.dkproj", "--name", "Plain"], in: directory.url, environment: environment)
        try Run.succeeding(["key", "new"], in: directory.url, environment: environment)
        try Run.succeeding(["set", "p.dkproj", "name", "Signed"], in: directory.url, environment: environment)
        let key = try Run.succeeding(["key", "show"], in: directory.url, environment: environment).output
        try Fixtures.write(Data("ada \(key)".utf8), to: "trusted", in: directory.url)
        try Run.succeeding(
            ["export", "p.dkproj", "-o", "p.html", "--trusted", "trusted"], in: directory.url, environment: environment)
        let history = try String(contentsOfFile: directory.path("p.html/history.html"), encoding: .utf8)
        #expect(history.contains(#"<span class="badge signature-signed""#) && history.contains(">signed by ada</span>"))
        #expect(history.contains(">unsigned</span>"))
        // Without trusted signers the user's own key is named for what others read, not "you".
        try Run.succeeding(["export", "p.dkproj", "-o", "q.html"], in: directory.url, environment: environment)
        let own = try String(contentsOfFile: directory.path("q.html/history.html"), encoding: .utf8)
        #expect(own.contains(">signed by the exporting user&#39;s key</span>"), "\(own)")
    }
}
