import Foundation

extension HTMLHistoryPages {
    /// The page of one version: its record, signature and changes, compared with its parent.
    func versionPage(_ detail: VersionDetail, newer: Int?, older: Int?) -> HTMLSitePage {
        versionPage(detail.version, newer: newer, older: older) { changes(detail, into: &$0) }
    }

    /// The page of one version, its changes as its record lists them (paths, not values).
    func versionPage(recording version: VersionSummary, newer: Int?, older: Int?) -> HTMLSitePage {
        versionPage(version, newer: newer, older: older) { recordedChanges(of: version, into: &$0) }
    }

    private func versionPage(
        _ version: VersionSummary, newer: Int?, older: Int?, changes: (inout HTMLMarkup) -> Void
    ) -> HTMLSitePage {
        let path = Self.versionPage(version.number)
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
                    parents(version, into: &html)
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
        changes(&html)
        return HTMLSitePage(path: path, title: "Version \(version.number)", section: .other, body: html.html)
    }

    private func fact(_ name: String, into html: inout HTMLMarkup, _ value: (inout HTMLMarkup) -> Void) {
        html.element(.dt, text: name)
        html.element(.dd, content: value)
    }

    /// The version's changes against its first parent, as `show` lists them.
    private func changes(_ detail: VersionDetail, into html: inout HTMLMarkup) {
        html.element(.h2, text: "Changes")
        if let parent = detail.parent {
            comparedWith(parent.number, merged: detail.version.parents.count > 1, into: &html)
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
            changeTable(headings: ["", "Path", "Before", "After"], into: &html) { html in
                for change in detail.changes.prefix(Self.shownChanges) {
                    changeRow(change.kind, change.path, into: &html) { html in
                        html.element(.td, .class("value"), text: change.old.map(Self.preview) ?? "")
                        html.element(
                            .td, .class("value"),
                            text: change.kind == .reordered ? "reordered" : change.new.map(Self.preview) ?? "")
                    }
                }
            }
            if detail.changes.count > Self.shownChanges {
                html.element(
                    .p, .class("muted"),
                    text: "… and \(detail.changes.count - Self.shownChanges) more changes (docctl show lists all).")
            }
        }
        blobList(detail.blobs, into: &html)
    }

    /// A version's changes as its record lists them when it was saved (what `log` shows):
    /// the paths and what happened to each, without the values, which only comparing the
    /// two documents gives.
    private func recordedChanges(of version: VersionSummary, into html: inout HTMLMarkup) {
        html.element(.h2, text: "Changes")
        if let parent = version.parents.first {
            if let number = numbers[parent] {
                comparedWith(number, merged: version.parents.count > 1, into: &html)
            } else {
                html.element(.p, text: "Its parent \(parent.prefix(12)) was pruned from this bundle.")
            }
        } else {
            html.element(.p, text: "The first version: everything it holds is added.")
        }
        guard let changes = version.changes else {
            html.element(
                .p, text: "Its record lists no changes; docctl show \(version.number) compares it with its parent.")
            return
        }
        html.element(
            .p, .class("muted"),
            text: """
                As its record lists them: the paths, not the values (this export compared the documents of the \
                newest versions only; docctl show \(version.number) gives the values).
                """)
        if changes.isEmpty {
            html.element(.p, text: "No changes.")
            return
        }
        if !changes.paths.isEmpty {
            changeTable(headings: ["", "Path"], into: &html) { html in
                for change in changes.paths { changeRow(change.kind, change.path, into: &html) { _ in } }
            }
        }
        if changes.omitted > 0 {
            html.element(
                .p, .class("muted"), text: "… and \(changes.omitted) more changes (docctl show lists all).")
        }
        blobList(changes.blobs, into: &html)
    }

    /// A table of changes under `headings`, whose rows `rows` adds.
    private func changeTable(
        headings: [String], into html: inout HTMLMarkup, rows: (inout HTMLMarkup) -> Void
    ) {
        html.element(.div, .class("table")) { html in
            html.element(.table) { html in
                html.element(.thead) { html in
                    html.element(.tr) { html in
                        for name in headings { html.element(.th, .attribute("scope", "col"), text: name) }
                    }
                }
                html.element(.tbody, content: rows)
            }
        }
    }

    /// A change's row: the kind's symbol, the path, then the cells `values` adds.
    private func changeRow(
        _ kind: JSONChange.Kind, _ path: String, into html: inout HTMLMarkup, values: (inout HTMLMarkup) -> Void
    ) {
        html.element(.tr, .class("kind-\(kind.rawValue)")) { html in
            html.element(.td, .title(kind.rawValue), text: Self.kindSymbols[kind.rawValue] ?? "")
            html.element(.td) { $0.element(.code, text: path) }
            values(&html)
        }
    }

    private static let kindSymbols = ["added": "+", "removed": "−", "changed": "~", "reordered": "↕"]

    private func comparedWith(_ parent: Int, merged: Bool, into html: inout HTMLMarkup) {
        html.element(.p) { html in
            html.text("Compared with ")
            html.link(to: HTMLLink(path: Self.versionPage(parent)), text: "version \(parent)")
            html.text(merged ? ", the version merged into." : ", its parent.")
        }
    }

    private func blobList(_ blobs: [BlobChange], into html: inout HTMLMarkup) {
        guard !blobs.isEmpty else { return }
        html.element(.h3, text: "Files")
        html.element(.ul) { html in
            for blob in blobs {
                html.element(.li, .class("kind-\(blob.kind.rawValue)")) { html in
                    html.text(blob.kind == .added ? "Added " : "Removed ")
                    html.element(.code, .class("digest"), text: String(blob.digest.prefix(12)))
                    html.text(" (\(ByteCount.readable(blob.size)))")
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
