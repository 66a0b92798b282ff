import Foundation

/// The pages of one version's document in an HTML export: the document's page, as its
/// type renders it (``HTMLRenderable``) or as a tree of its JSON, the further pages of its
/// long lists, and its files page (every blob it refers to).
struct HTMLDocumentView {
    var context: HTMLPageContext
    var pageSize: Int
    /// The folder of the pages from the site's root: `""` for the exported version's,
    /// `versions/3/` for another's.
    var folder: String
    /// The document page's file name: `index.html`, or `document.html` in a version's folder.
    var mainPage: String
    /// The title when the document names none: the bundle's file name without extension.
    var fallbackTitle: String
    /// A line above the document saying which version it is, with links.
    var versionLine: (inout HTMLMarkup) -> Void

    /// The pages, by path from the site's root, and the document's title.
    func pages(document data: Data, version: BundleVersion, contentType: String) -> (
        pages: [HTMLSitePage], title: String
    ) {
        let page = HTMLDocumentPage(
            title: fallbackTitle, pageSize: pageSize, context: context, folder: folder, fileName: mainPage)
        var note: String?
        // The files page's blobs are collected from the JSON tree first, and the tree let go
        // before the typed value is decoded and rendered: a large document's tree is never
        // held beside its typed value or its rendered pages (the export's peak).
        var json = try? JSONValue.parse(data)
        let isJSON = json != nil
        let blobs = json.map(Self.referredBlobs) ?? []
        let type = DocumentKitConfiguration.current.documentType(for: contentType)
        // Kept for a type that shows its JSON anyway, so it is not parsed twice.
        if type is any HTMLRenderable.Type { json = nil }
        if let type {
            do {
                let document = try type.decode(
                    data, schema: version.schema,
                    context: DocumentDecodingContext(now: version.created, seed: version.id))
                if let renderable = document as? any HTMLRenderable { try renderable.renderHTML(into: page) }
            } catch let error as DocumentKitError {
                note = "This build cannot read the document as \(contentType) (\(error.message)); its data is shown."
            } catch {
                note = "This build cannot read the document as \(contentType) (\(error)); its data is shown."
            }
        }
        if page.parts.isEmpty, isJSON, let json = json ?? (try? JSONValue.parse(data)) {
            // A type that does not render itself, or a document its type cannot read.
            HTMLJSONTree.render(json, into: page)
        } else if !isJSON, page.parts.isEmpty {
            note = "The document is not JSON this export can read; the bundle holds it as it was saved."
        }
        json = nil
        var result: [HTMLSitePage] = []
        var body = HTMLMarkup(context: context)
        versionLine(&body)
        if let note { body.element(.p, .class("note"), text: note) }
        // Last part first off the end, each let go once it is in the pages.
        var parts = Array(page.takeParts().reversed())
        while let part = parts.popLast() {
            switch part {
            case .markup(let markup):
                body.appendTrusted(markup)
            case .list(let list, let heading, let pages):
                body.appendTrusted(listSection(list, heading: heading, page: 0, items: pages[0]))
                for index in pages.indices.dropFirst() {
                    var extra = HTMLMarkup(context: context)
                    versionLine(&extra)
                    extra.appendTrusted(listSection(list, heading: heading, page: index, items: pages[index]))
                    result.append(
                        HTMLSitePage(
                            path: list.path(ofPage: index),
                            title: "\(page.title): \(heading), page \(index + 1) of \(pages.count)",
                            section: folder.isEmpty ? .document : .other, body: extra.html))
                }
            }
        }
        result.insert(
            HTMLSitePage(
                path: folder + mainPage, title: page.title, section: folder.isEmpty ? .document : .other,
                body: body.html), at: 0)
        result.append(filesPage(blobs: blobs, title: page.title))
        return (result, page.title)
    }

    /// A list's page `page`: its heading, the way to its other pages, its items.
    private func listSection(_ list: HTMLPagedList, heading: String, page: Int, items: String) -> String {
        var html = HTMLMarkup(context: context)
        html.element(.section, .class("list"), .attribute("aria-labelledby", "\(list.name)-heading")) { html in
            html.element(.h2, .id("\(list.name)-heading"), text: heading)
            pager(list, heading: heading, page: page, into: &html)
            let first = list.range(ofPage: page).lowerBound
            html.element(
                .ol, .class("items \(list.name)"), .attribute("start", "\(first + 1)"),
                .data("filter", "Filter \(heading.lowercased()) on this page")
            ) { html in html.appendTrusted(items) }
            if list.pageCount > 1 { pager(list, heading: heading, page: page, into: &html) }
        }
        return html.html
    }

    private func pager(_ list: HTMLPagedList, heading: String, page: Int, into html: inout HTMLMarkup) {
        guard list.pageCount > 1 else { return }
        let range = list.range(ofPage: page)
        html.element(.nav, .class("pager"), .attribute("aria-label", "Pages of \(heading)")) { html in
            html.element(
                .span,
                text: """
                    Items \(range.lowerBound + 1)–\(range.upperBound) of \(list.itemIDs.count), page \(page + 1) of \
                    \(list.pageCount)
                    """)
            if page > 0 {
                html.link(
                    to: HTMLLink(path: list.path(ofPage: page - 1)), .attribute("rel", "prev"), text: "← Previous")
            }
            if page < list.pageCount - 1 {
                html.link(to: HTMLLink(path: list.path(ofPage: page + 1)), .attribute("rel", "next"), text: "Next →")
            }
            html.element(.ol) { html in
                for index in 0..<list.pageCount {
                    html.element(.li) { html in
                        if index == page {
                            html.element(.span, .attribute("aria-current", "page"), text: "\(index + 1)")
                        } else {
                            html.link(to: HTMLLink(path: list.path(ofPage: index)), text: "\(index + 1)")
                        }
                    }
                }
            }
        }
    }

    /// Every blob `json` refers to, each once, with the paths that refer to it.
    private static func referredBlobs(by json: JSONValue) -> [(blob: HTMLBlobView.Blob, paths: [String])] {
        var blobs: [(blob: HTMLBlobView.Blob, paths: [String])] = []
        var index: [String: Int] = [:]
        collectBlobs(
            json, path: "",
            into: { blob, path in
                if let found = index[blob.digest] {
                    blobs[found].paths.append(path)
                } else {
                    index[blob.digest] = blobs.count
                    blobs.append((blob, [path]))
                }
            })
        return blobs
    }

    /// The page of every blob the document refers to, each once, with where it is referred to.
    private func filesPage(blobs: [(blob: HTMLBlobView.Blob, paths: [String])], title: String) -> HTMLSitePage {
        var html = HTMLMarkup(context: context)
        versionLine(&html)
        if blobs.isEmpty {
            html.element(.p, text: "The document refers to no files.")
        } else {
            html.element(
                .p,
                text: "The document refers to \(blobs.count) file\(blobs.count == 1 ? "" : "s"), each stored beside it."
            )
            html.element(.ol, .class("items files"), .data("filter", "Filter files")) { html in
                for (blob, paths) in blobs {
                    html.element(.li) { html in
                        HTMLBlobView.write(blob, into: &html)
                        html.element(.dl, .class("relations")) { html in
                            html.element(.dt, text: "Referred to at")
                            for path in paths.prefix(20) {
                                html.element(.dd) { html in html.element(.code, text: path) }
                            }
                            if paths.count > 20 { html.element(.dd, text: "and \(paths.count - 20) more") }
                            html.element(.dt, text: "SHA-256")
                            html.element(.dd) { html in html.element(.code, .class("digest"), text: blob.digest) }
                        }
                    }
                }
            }
        }
        let path = folder + "files.html"
        return HTMLSitePage(
            path: path, title: "Files of \(title)", section: folder.isEmpty ? .files : .other, body: html.html)
    }

    /// Every blob reference in `value`, with its JSON path, in document order (members by name).
    static func collectBlobs(_ value: JSONValue, path: String, into found: (HTMLBlobView.Blob, String) -> Void) {
        switch value {
        case .object(let members):
            if let blob = HTMLBlobView.Blob(json: members) { return found(blob, path) }
            for key in members.keys.sorted() {
                collectBlobs(members[key]!, path: path.isEmpty ? key : "\(path).\(key)", into: found)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                switch element {
                case .object, .array: collectBlobs(element, path: "\(path)[\(index)]", into: found)
                default: continue
                }
            }
        default:
            return
        }
    }
}
