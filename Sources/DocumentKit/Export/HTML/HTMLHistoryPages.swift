import Foundation

/// The history in an HTML export: a timeline of every version, newest first, drawn beside
/// the lanes `log --graph` draws (``VersionGraph``), and a page for each version with its
/// record, its signature as `verify` finds it (``BundleVerifier``) and its changes as
/// `show` lists them (``VersionDetail``) or its record names them
/// (`HTMLHistoryPages+VersionPage.swift`).
struct HTMLHistoryPages {
    var pageSize: Int
    /// Every version, newest first, as `log` lists them.
    var versions: [VersionSummary]
    /// What `verify` found.
    var report: BundleVerifier.Report
    /// Whether `report` rebuilt and checked every version's document (`verify`), or checked
    /// the bundle as `validate` does.
    var deeplyVerified: Bool
    /// Where each version's document is in the site, by number: the exported version's, or
    /// every version's with every version exported.
    var documentPages: [Int: String]
    /// Each version's number, by id; each signature, by version number. Made once: every
    /// page of a version looks its parents and signature up.
    let numbers: [String: Int]
    let signatures: [Int: BundleVerifier.Report.Signature]
    /// The most changes a version's page lists; `docctl show` lists them all.
    static let shownChanges = 2000
    /// The most characters of a value a change shows.
    static let shownValueCharacters = 240

    init(
        pageSize: Int, versions: [VersionSummary], report: BundleVerifier.Report, deeplyVerified: Bool,
        documentPages: [Int: String]
    ) {
        (self.pageSize, self.versions, self.report) = (pageSize, versions, report)
        (self.deeplyVerified, self.documentPages) = (deeplyVerified, documentPages)
        numbers = Dictionary(versions.map { ($0.id, $0.number) }, uniquingKeysWith: { first, _ in first })
        signatures = Dictionary(report.versions.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func versionPage(_ number: Int) -> String { "versions/\(number)/index.html" }

    /// The timeline's pages (`history.html`, `history-2.html`, …), each passed to `add` as
    /// it is made: 100,000 versions make 200 pages of 300 KB.
    func timelinePages(_ add: (HTMLSitePage) throws -> Void) rethrows {
        let rows = VersionGraph(versions).rows
        let width = rows.map { ([$0.first, $0.merge ?? "", $0.rest] + $0.after).map(\.count).max() ?? 0 }.max() ?? 0
        let pageCount = max(1, (versions.count + pageSize - 1) / pageSize)
        func path(_ page: Int) -> String { page == 0 ? "history.html" : "history-\(page + 1).html" }
        let context = HTMLPageContext(base: "", blobPaths: [:])
        for page in 0..<pageCount {
            var html = HTMLMarkup(context: context)
            if page == 0 { verification(into: &html) }
            if pageCount > 1 {
                html.element(.nav, .class("pager"), .attribute("aria-label", "Pages of the history")) { html in
                    html.element(.span, text: "Page \(page + 1) of \(pageCount)")
                    if page > 0 { html.link(to: HTMLLink(path: path(page - 1)), text: "← Newer") }
                    if page < pageCount - 1 { html.link(to: HTMLLink(path: path(page + 1)), text: "Older →") }
                }
            }
            let range = page * pageSize..<min(versions.count, (page + 1) * pageSize)
            html.element(
                .ol, .class("timeline"), .attribute("reversed", ""),
                .attribute("start", "\(versions.count - range.lowerBound)")
            ) { html in
                for index in range {
                    entry(
                        versions[index], row: rows[index], width: width,
                        signature: signatures[versions[index].number], into: &html)
                }
            }
            try add(HTMLSitePage(path: path(page), title: "History", section: .history, body: html.html))
        }
    }

    /// What `verify` concluded, over the whole bundle.
    private func verification(into html: inout HTMLMarkup) {
        let signed = report.versions.filter { $0.status == .signed }.count
        let counts = "\(report.versions.count) version\(report.versions.count == 1 ? "" : "s"), \(signed) signed"
        let checked =
            deeplyVerified
            ? "Every object, id and signature was checked"
            : "Every id, signature and record was checked as docctl validate checks them "
                + "(docctl verify also rebuilds the document of every version)"
        html.element(.section, .class(report.valid ? "verification" : "verification altered")) { html in
            if report.valid {
                html.element(
                    .p,
                    text: """
                        Verified when exported: \(counts). \(checked); nothing was altered.
                        """)
            } else {
                html.element(.p) { html in
                    html.element(.strong, .class("altered"), text: "Altered.")
                    let what = deeplyVerified ? "object, id and signature" : "id, signature and record"
                    html.text(" \(counts). Checking every \(what) found:")
                }
                html.element(.ul) { html in
                    for finding in report.findings.prefix(200) { html.element(.li, text: finding.description) }
                }
            }
        }
    }

    /// One version on the timeline: three lines, each beside its lanes (padded to `width`
    /// characters, so that every line's text starts in one column), then the lines of
    /// lanes alone that join or move before the next version.
    private func entry(
        _ version: VersionSummary, row: VersionGraph.Row, width: Int,
        signature: BundleVerifier.Report.Signature?, into html: inout HTMLMarkup
    ) {
        func lanes(_ text: String, into html: inout HTMLMarkup) {
            html.element(.span, .class("graph"), .attribute("aria-hidden", "true")) { html in
                let padded = text.count < width ? text + String(repeating: " ", count: width - text.count) : text
                // Box-drawing lanes meet from line to line, where `|` leaves gaps.
                let drawn: [Character: String] = ["|": "│", "/": "╱", "\\": "╲", "_": "─", "-": "─"]
                for character in padded {
                    if character == "*" {
                        html.element(.strong, text: "●")
                    } else {
                        html.text(drawn[character] ?? String(character))
                    }
                }
            }
        }
        html.element(.li, .id("v\(version.number)")) { html in
            html.element(.div, .class("line")) { html in
                lanes(row.first, into: &html)
                html.element(.span) { html in
                    html.link(to: HTMLLink(path: Self.versionPage(version.number)), text: "Version \(version.number)")
                    html.text(" · ")
                    html.time(DocumentDates.parse(version.created) ?? Date(timeIntervalSince1970: 0))
                    html.text(" · ")
                    html.element(.span, .class("author"), text: version.author)
                }
            }
            html.element(.div, .class("line")) { html in
                lanes(row.merge ?? row.rest, into: &html)
                html.element(
                    .span, .class("message"),
                    text: version.message.isEmpty ? "(no message)" : String(version.message.prefix { $0 != "\n" }))
            }
            html.element(.div, .class("line")) { html in
                lanes(row.rest, into: &html)
                html.element(.span) { html in
                    signatureBadge(signature, into: &html)
                    html.text(" ")
                    parents(version, into: &html)
                    html.text(" · \(changeCount(version))")
                }
            }
            for line in row.after {
                html.element(.div, .class("line")) { html in lanes(line, into: &html) }
            }
        }
    }

    private func changeCount(_ version: VersionSummary) -> String {
        guard !version.parents.isEmpty else { return "first version" }
        guard let changes = version.changes else { return "changes not recorded" }
        let count = changes.paths.count + changes.blobs.count + changes.omitted
        return count == 0 ? "no changes" : "\(count) change\(count == 1 ? "" : "s")"
    }

    func parents(_ version: VersionSummary, into html: inout HTMLMarkup) {
        if version.parents.count > 1 { html.text("merge of ") } else if !version.parents.isEmpty { html.text("after ") }
        for (index, parent) in version.parents.enumerated() {
            if index > 0 { html.text(index == version.parents.count - 1 ? " and " : ", ") }
            if let number = numbers[parent] {
                html.link(to: HTMLLink(path: Self.versionPage(number)), text: "version \(number)")
            } else {
                html.element(.span, .title("pruned from this bundle"), text: "\(parent.prefix(12)) (pruned)")
            }
        }
    }

    func signatureBadge(_ signature: BundleVerifier.Report.Signature?, into html: inout HTMLMarkup) {
        guard let signature else { return html.element(.span, .class("badge"), text: "unsigned") }
        let text =
            switch signature.status {
            case .signed: "signed by \(signature.signer ?? "a valid key")"
            case .untrusted: "signed by an untrusted key"
            case .unsigned: "unsigned"
            case .invalid: "signature INVALID"
            }
        html.element(
            .span, .class("badge signature-\(signature.status.rawValue)"),
            .title(signature.key.map { "key \($0)" } ?? ""),
            text: text)
    }
}
