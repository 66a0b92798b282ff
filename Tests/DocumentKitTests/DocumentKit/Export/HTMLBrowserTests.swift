import DocumentKit
import Foundation
import Testing

/// The HTML export opened in a real browser, Debian's headless Chromium: from `file://`,
/// with no server and no network, the page shows the document, the history and hostile
/// text as text, and its console stays silent. Three launches in all, a few seconds.
@Suite struct HTMLBrowserTests {
    @Test func theSiteOpensInChromiumShowingItsContentAndHostileTextAsText() throws {
        try Chromium.requireForThisTest()
        let directory = try TemporaryDirectory()
        let board = try HTMLExportTests.hostileBoard(in: directory)
        let site = directory.url.appendingPathComponent("site")
        try Run.succeeding(["export", board.path, "--format", "html", "-o", site.path], in: directory.url)

        let index = try Chromium.dumpDOM(site.appendingPathComponent("index.html"), in: directory)
        #expect(index.console == [], "the console: \(index.console)")
        for text in ["<h1>Website</h1>", "Write the copy", "Design the pages", "Buy the domain", "Publish", "Board"] {
            #expect(index.dom.contains(text), "\(text)")
        }
        // The hostile title is text in the DOM (serialized escaped), and no element it spells exists.
        #expect(index.dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"))
        #expect(
            !index.dom.contains("<script>alert") && SiteLinks.eventHandlers(in: index.dom).isEmpty
                && !index.dom.contains("<img src=\"x\""))
        #expect(index.dom.components(separatedBy: "<script").count == 2, "the site's own script alone")
        // The script ran (it adds the filter field) without a word to the console.
        #expect(index.dom.contains(#"<label class="filter"><input type="search""#))
        // Every image and link of the loaded page is a file of the site.
        for target in SiteLinks.targets(in: index.dom) {
            #expect(!target.contains(":"), "\(target)")
            let path = String(target.prefix { $0 != "#" }).removingPercentEncoding ?? target
            if !path.isEmpty {
                #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(path).path), "\(target)")
            }
        }
        #expect(try SiteLinks.unresolved(in: site) == [])

        let history = try Chromium.dumpDOM(site.appendingPathComponent("history.html"), in: directory)
        #expect(history.console == [], "the console: \(history.console)")
        for version in try BundleSummary.log(of: board) {
            let subject = String(version.message.prefix { $0 != "\n" })
            #expect(
                history.dom.contains(HTMLText.escape(subject).replacingOccurrences(of: "&#39;", with: "'")),
                "\(subject)")
        }
        #expect(history.dom.contains("Add &lt;b&gt;hostile&lt;/b&gt;"))

        let png = directory.url.appendingPathComponent("index.png")
        let console = try Chromium.screenshot(site.appendingPathComponent("index.html"), to: png, in: directory)
        #expect(console == [], "the console: \(console)")
        let stats = try ExternalTool.python3.run([
            Fixtures.repository.appendingPathComponent("Tests/Chromium/png_stats.py").path, png.path
        ])
        #expect(stats.status == 0, "\(stats.standardError)")
        let numbers = try JSONSerialization.jsonObject(with: stats.standardOutput) as? [String: Any] ?? [:]
        let (width, height) = (numbers["width"] as? Int ?? 0, numbers["height"] as? Int ?? 0)
        #expect(width == 1200 && height == 900, "\(numbers)")
        // Far from blank: text, badges, a board and a picture make many colours and pixels.
        #expect(numbers["colours"] as? Int ?? 0 >= 50, "\(numbers)")
        #expect(numbers["nonBackground"] as? Int ?? 0 >= width * height / 50, "\(numbers)")
        #expect(Self.luminance(numbers["background"]) > 0.8, "a light page by default: \(numbers)")
    }

    /// On a phone's 320 px, with the system's dark scheme (`prefers-color-scheme`), the
    /// page lays itself out for the width and turns dark; in print, it has a style of its own.
    @Test func theSiteReadsAtThreeHundredTwentyPixelsInTheDarkScheme() throws {
        try Chromium.requireForThisTest()
        let directory = try TemporaryDirectory()
        let board = try HTMLExportTests.hostileBoard(in: directory)
        let site = directory.url.appendingPathComponent("site")
        try Run.succeeding(["export", board.path, "--format", "html", "-o", site.path], in: directory.url)
        let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(index.contains(#"<meta name="viewport" content="width=device-width"#))
        let style = try String(contentsOf: site.appendingPathComponent("style.css"), encoding: .utf8)
        #expect(style.contains("@media print") && style.contains("prefers-color-scheme: dark"))

        let png = directory.url.appendingPathComponent("narrow-dark.png")
        let console = try Chromium.screenshot(
            site.appendingPathComponent("index.html"), to: png, width: 320, height: 900, darkScheme: true,
            in: directory)
        #expect(console == [], "the console: \(console)")
        let stats = try ExternalTool.python3.run([
            Fixtures.repository.appendingPathComponent("Tests/Chromium/png_stats.py").path, png.path
        ])
        let numbers = try JSONSerialization.jsonObject(with: stats.standardOutput) as? [String: Any] ?? [:]
        #expect(numbers["width"] as? Int == 320, "\(numbers)")
        #expect(Self.luminance(numbers["background"]) < 0.2, "a dark page: \(numbers)")
        // The content is there at that width: a narrow column of text and cards.
        #expect(numbers["colours"] as? Int ?? 0 >= 50, "\(numbers)")
        #expect(numbers["nonBackground"] as? Int ?? 0 >= 320 * 900 / 20, "\(numbers)")
    }

    /// The relative luminance of a colour written `rrggbb` (0 black, 1 white); -1 when it is not one.
    static func luminance(_ hex: Any?) -> Double {
        guard let hex = hex as? String, hex.count >= 6, let value = Int(hex.prefix(6), radix: 16) else { return -1 }
        let (red, green, blue) = (Double(value >> 16 & 0xFF), Double(value >> 8 & 0xFF), Double(value & 0xFF))
        return (0.2126 * red + 0.7152 * green + 0.0722 * blue) / 255
    }
}
