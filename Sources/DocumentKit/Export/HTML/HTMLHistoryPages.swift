import Foundation

/// The history in an HTML export: a timeline of every version, newest first, drawn beside
/// the lanes `log --graph` draws (``VersionGraph``), and a page for each version with its
/// record, its signature as `verify` finds it (``BundleVerifier``) and its changes as
/// `show` lists them (``VersionDetail``).
struct HTMLHistoryPages {
    var pageSize: Int
    /// Every version, newest first, as `log` lists them.
    var versions: [VersionSummary]
    /// What `verify` found.
    var report: BundleVerifier.Report
    /// Where each version's document is in the site, by number: the exported version's, or
    /// every version's with every version exported.
    var documentPages: [Int: String]
    /// The most changes a version's page lists; `docctl show` lists them all.
    static let shownChanges = 2000
    /// The most characters of a value a change shows.
    static let shownValueCharacters = 240

    static func versionPage(_ number: Int) -> String { "versions/\(number)/index.html" }

    private var signatures: [Int: BundleVerifier.Report.Signature] {
        Dictionary(report.versions.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The timeline's pages (`history.html`, `history-2.html`, …).
    func timelinePages() -> [HTMLSitePage] {
        let rows = VersionGraph(versions).rows
        let numbers = Dictionary(versions.map { ($0.id, $0.number) }, uniquingKeysWith: { first, _ in first })
        let signatures = signatures
        let width = rows.map { ([$0.first, $0.merge ?? "", $0.rest] + $0.after).map(\.count).max() ?? 0 }.max() ?? 0
        let pageCount = max(1, (versions.count + pageSize - 1) / pageSize)
        func path(_ page: Int) -> String { page == 0 ? "history.html" : "history-\(page + 1).html" }
        var pages: [HTMLSitePage] = []
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
                        versions[index], row: rows[index], width: width, numbers: numbers,
                        signature: signatures[versions[index].number], into: &html)
                }
            }
            pages.append(HTMLSitePage(path: path(page), title: "History", section: .history, body: html.html))
        }
        return pages
    }

    /// What `verify` concluded, over the whole bundle.
    private func verification(into html: inout HTMLMarkup) {
        let signed = report.versions.filter { $0.status == .signed }.count
        let counts = "\(report.versions.count) version\(report.versions.count == 1 ? "" : "s"), \(signed) signed"
        html.element(.section, .class(report.valid ? "verification" : "verification altered")) { html in
            if report.valid {
                html.element(
                    .p,
                    text: """
                        Verified when exported: \(counts). Every object, id and signature was checked; nothing was \
                        altered.
                        """)
            } else {
                html.element(.p) { html in
                    html.element(.strong, .class("altered"), text: "Altered.")
                    html.text(" \(counts). Checking every object, id and signature found:")
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
        _ version: VersionSummary, row: VersionGraph.Row, width: Int, numbers: [String: Int],
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
                    parents(version, numbers: numbers, into: &html)
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

    private func parents(_ version: VersionSummary, numbers: [String: Int], into html: inout HTMLMarkup) {
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

    private func signatureBadge(_ signature: BundleVerifier.Report.Signature?, into html: inout HTMLMarkup) {
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

    /// The page of one version: its record, signature and changes.
    func versionPage(_ detail: VersionDetail, newer: Int?, older: Int?) -> HTMLSitePage {
        let version = detail.version
        let path = Self.versionPage(version.number)
        let numbers = Dictionary(versions.map { ($0.id, $0.number) }, uniquingKeysWith: { first, _ in first })
        var html = HTMLMarkup(context: HTMLPageContext(base: "../../", blobPaths: [:]))
        html.element(.nav, .class("pager"), .attribute("aria-label", "Versions")) { html in
            html.link(to: HTMLLink(path: "history.html", fragment: "v\(version.number)"), text: "History")
            if let newer { html.link(to: HTMLLink(path: Self.versionPage(newer)), text: "← Version \(newer)") }
            if let older { html.link(to: HTMLLink(path: Self.versionPage(older)), text: "Version \(older) →") }
        }
        html.element(.dl, .class("facts")) { html in
            fact("Id", into: &html) { $0.element(.code, .class("digest"), text: version.id) }
            fact("Saved", into: &html) {
                $0.time(DocumentDates.parse(version.created) ?? Date(timeIntervalSince1970: 0))
            }
            fact("Author", into: &html) { $0.text(version.author) }
            fact("Message", into: &html) {
                $0.element(.span, .class("message"), text: version.message.isEmpty ? "(no message)" : version.message)
            }
            fact(version.parents.count > 1 ? "Merge of" : "Parent", into: &html) { html in
                if version.parents.isEmpty {
                    html.text("none: the first version")
                } else {
                    parents(version, numbers: numbers, into: &html)
                }
            }
            fact("Signature", into: &html) { html in
                let signature = signatures[version.number]
                signatureBadge(signature, into: &html)
                if let key = signature?.key {
                    html.text(" ")
                    html.element(.code, .class("digest"), text: key)
                }
            }
            fact("Schema", into: &html) { $0.text("\(version.schema), written by \(version.writer)") }
            fact("Document", into: &html) { html in
                if let page = documentPages[version.number] {
                    html.link(to: HTMLLink(path: page), text: "the document at version \(version.number)")
                } else {
                    html.text("not in this export (an export of every version holds each version's)")
                }
            }
        }
        changes(detail, numbers: numbers, into: &html)
        return HTMLSitePage(path: path, title: "Version \(version.number)", section: .other, body: html.html)
    }

    private func fact(_ name: String, into html: inout HTMLMarkup, _ value: (inout HTMLMarkup) -> Void) {
        html.element(.dt, text: name)
        html.element(.dd, content: value)
    }

    /// The version's changes against its first parent, as `show` lists them.
    private func changes(_ detail: VersionDetail, numbers: [String: Int], into html: inout HTMLMarkup) {
        html.element(.h2, text: "Changes")
        if let parent = detail.parent {
            html.element(.p) { html in
                html.text("Compared with ")
                html.link(to: HTMLLink(path: Self.versionPage(parent.number)), text: "version \(parent.number)")
                html.text(detail.version.parents.count > 1 ? ", the version merged into." : ", its parent.")
            }
        } else if let pruned = detail.version.parents.first {
            html.element(.p, text: "Its parent \(pruned.prefix(12)) was pruned: everything it holds is shown as added.")
        } else {
            html.element(.p, text: "The first version: everything it holds is added.")
        }
        if detail.changes.isEmpty, detail.blobs.isEmpty {
            html.element(.p, text: "No changes.")
            return
        }
        if !detail.changes.isEmpty {
            html.element(.div, .class("table")) { html in
                html.element(.table) { html in
                    html.element(.thead) { html in
                        html.element(.tr) { html in
                            for name in ["", "Path", "Before", "After"] {
                                html.element(.th, .attribute("scope", "col"), text: name)
                            }
                        }
                    }
                    html.element(.tbody) { html in
                        for change in detail.changes.prefix(Self.shownChanges) {
                            html.element(.tr, .class("kind-\(change.kind.rawValue)")) { html in
                                let symbol = ["added": "+", "removed": "−", "changed": "~", "reordered": "↕"]
                                html.element(
                                    .td, .title(change.kind.rawValue), text: symbol[change.kind.rawValue] ?? "")
                                html.element(.td) { $0.element(.code, text: change.path) }
                                html.element(.td, .class("value"), text: change.old.map(Self.preview) ?? "")
                                html.element(
                                    .td, .class("value"),
                                    text: change.kind == .reordered ? "reordered" : change.new.map(Self.preview) ?? "")
                            }
                        }
                    }
                }
            }
            if detail.changes.count > Self.shownChanges {
                html.element(
                    .p, .class("muted"),
                    text: "… and \(detail.changes.count - Self.shownChanges) more changes (docctl show lists all).")
            }
        }
        if !detail.blobs.isEmpty {
            html.element(.h3, text: "Files")
            html.element(.ul) { html in
                for blob in detail.blobs {
                    html.element(.li, .class("kind-\(blob.kind.rawValue)")) { html in
                        html.text(blob.kind == .added ? "Added " : "Removed ")
                        html.element(.code, .class("digest"), text: String(blob.digest.prefix(12)))
                        html.text(" (\(ByteCount.readable(blob.size)))")
                    }
                }
            }
        }
    }

    /// A value as compact JSON, cut at ``shownValueCharacters``.
    static func preview(_ value: JSONValue) -> String {
        var output = ""
        preview(value, into: &output)
        return output.count > shownValueCharacters ? output.prefix(shownValueCharacters) + "…" : output
    }

    private static func preview(_ value: JSONValue, into output: inout String) {
        guard output.utf8.count <= shownValueCharacters * 4 else { return }
        switch value {
        case .string(let text):
            output += JSONValue.string(String(text.prefix(shownValueCharacters + 1))).jsonText(pretty: false)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if output.utf8.count > shownValueCharacters * 4 { break }
                if index > 0 { output += "," }
                preview(element, into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if output.utf8.count > shownValueCharacters * 4 { break }
                if index > 0 { output += "," }
                output += JSONValue.string(key).jsonText(pretty: false) + ":"
                preview(members[key]!, into: &output)
            }
            output += "}"
        default:
            output += value.jsonText(pretty: false)
        }
    }
}
