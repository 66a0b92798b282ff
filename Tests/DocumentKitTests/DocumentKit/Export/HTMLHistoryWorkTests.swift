import Foundation
import Testing

@testable import DocumentKit

/// An HTML export gives each version a page of its changes. The newest versions' pages
/// compare each document with its parent's, newest first, each document rebuilt once (the
/// parent's is the next page's own); past a budget of document bytes, a page lists the
/// changes the version's record names, and reads no document. And what `verify` would
/// rebuild (every version's document) is checked only by an export of every version: an
/// export of the head costs what it shows, not the history's length (issue 27: 26,447
/// versions of the bench project took over 400 s, rebuilding 200 GB of documents).
@Suite struct HTMLHistoryWorkTests {
    static let versions = 41

    static func project(in directory: TemporaryDirectory) throws -> (url: URL, documentBytes: Int) {
        let url = try FormatThreeFixtures.project(
            at: directory.url.appendingPathComponent("p.dkproj"), taskCount: 2_000, saves: versions - 1)
        let bundle = try DocumentBundle(contentsOf: url)
        return (url, try bundle.documentData(of: bundle.headVersion).count)
    }

    @Test func thePagesRebuildEachVersionsDocumentOnce() throws {
        let directory = try TemporaryDirectory()
        let (_, document) = try Self.project(in: directory)
        let counts = try WorkScalingTests.meteredRun(
            ["export", "p.dkproj", "--format", "html", "-o", "site"], in: directory)
        let rebuilt = try #require(counts["rebuilt-bytes"])
        // 40 documents rebuilt (the head's is document.json): each once. A deep verify
        // first, and pages that rebuilt both of their documents, took 2.88 documents a version.
        #expect(
            rebuilt > (Self.versions - 2) * document, "the meter sees the documents rebuilt: \(counts)")
        #expect(
            Double(rebuilt) < 1.1 * Double(Self.versions * document),
            "\(rebuilt) bytes rebuilt for \(Self.versions) documents of \(document)")
        #expect(
            Fixtures.listing(directory.url.appendingPathComponent("site/versions")).count == Self.versions,
            "a page for each version")
    }

    @Test func pastTheBudgetAPageListsWhatItsRecordNamesAndReadsNoDocument() throws {
        let directory = try TemporaryDirectory()
        let (url, document) = try Self.project(in: directory)
        var configuration = DocumentKitConfiguration.current
        configuration.workMeter = WorkMeter()
        let meter = try #require(configuration.workMeter)
        let bundle = try DocumentBundle(contentsOf: url)
        // Room for the newest version's two documents and a third: two pages compared.
        let files = try configuration.apply {
            try HTMLSite.files(
                of: bundle, selected: bundle.headVersion, allVersions: false, trusted: nil,
                comparedDocumentBytes: 2 * document + 1)
        }
        let rebuilt = meter.snapshot[.rebuiltBytes] ?? 0
        #expect(rebuilt <= 3 * document, "\(rebuilt) bytes rebuilt for pages of documents of \(document)")
        func page(_ number: Int) throws -> String {
            let file = try #require(files.first { $0.path == "versions/\(number)/index.html" }?.node)
            return String(decoding: try file.regularFileContents(), as: UTF8.self)
        }
        // The newest pages show the values: the title before and after the save.
        let newest = try page(Self.versions)
        #expect(newest.contains("Renamed in save \(Self.versions - 1)"), "\(newest)")
        #expect(!newest.contains("As its record lists them"))
        // An old page names the changed path, as its record does, and no value.
        let old = try page(10)
        #expect(old.contains("As its record lists them"), "\(old)")
        #expect(old.contains(".title</code>"), "\(old)")
        #expect(!old.contains("Renamed in save 9"), "no value without reading the documents")
        #expect(old.contains(#"Compared with <a href="../../versions/9/index.html">version 9</a>"#), "\(old)")
        #expect(files.filter { $0.path.hasPrefix("versions/") && $0.node != nil }.count == Self.versions)
    }
}
