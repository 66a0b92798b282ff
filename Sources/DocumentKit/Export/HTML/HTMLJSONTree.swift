import Foundation

/// The page of a document whose type does not render itself (``HTMLRenderable``): its
/// JSON as a tree a person can fold, members by name, blobs shown as blobs. A top-level
/// array longer than a page is a paged list, as a type's own list would be.
enum HTMLJSONTree {
    /// Containers this deep or deeper start folded.
    static let unfoldedDepth = 2
    /// The most elements an array below the top level shows; the document holds the rest.
    static let shownElements = 1000

    static func render(_ value: JSONValue, into page: HTMLDocumentPage) {
        guard case .object(let members) = value else {
            page.section { html in
                html.element(.ul, .class("tree root")) { html in item(nil, value, depth: 0, into: &html) }
            }
            return
        }
        if case .string(let name)? = members["name"], !name.isEmpty { page.title = name }
        var pending: [(String, JSONValue)] = []
        func flush() {
            guard !pending.isEmpty else { return }
            let written = pending
            page.section { html in
                html.element(.ul, .class("tree root")) { html in
                    for (key, value) in written { item(key, value, depth: 0, into: &html) }
                }
            }
            pending = []
        }
        for key in members.keys.sorted() {
            let value = members[key]!
            if case .array(let elements) = value, elements.count > page.pageSize {
                flush()
                let list = page.list(key, itemIDs: elements.indices.map { "\(listID(key))-\($0)" })
                page.write(list, heading: "\(key) (\(elements.count))") { html, index in
                    html.element(.ul, .class("tree")) { html in
                        item("[\(index)]", elements[index], depth: 1, into: &html)
                    }
                }
            } else {
                pending.append((key, value))
            }
        }
        flush()
    }

    private static func listID(_ key: String) -> String {
        let kept = String(key.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
        return "item-" + (kept.isEmpty ? "list" : kept)
    }

    /// One member or element: a scalar on a line, a container as a `details`.
    static func item(_ key: String?, _ value: JSONValue, depth: Int, into html: inout HTMLMarkup) {
        html.element(.li) { html in
            switch value {
            case .object(let members):
                if let blob = HTMLBlobView.Blob(json: members) {
                    label(key, into: &html)
                    HTMLBlobView.write(blob, into: &html)
                    return
                }
                container(
                    key, summary: "{ \(members.count) member\(members.count == 1 ? "" : "s") }", depth: depth,
                    into: &html
                ) { html in
                    for name in members.keys.sorted() { item(name, members[name]!, depth: depth + 1, into: &html) }
                }
            case .array(let elements):
                container(
                    key, summary: "[ \(elements.count) item\(elements.count == 1 ? "" : "s") ]", depth: depth,
                    into: &html
                ) { html in
                    for (index, element) in elements.prefix(shownElements).enumerated() {
                        item("[\(index)]", element, depth: depth + 1, into: &html)
                    }
                    if elements.count > shownElements {
                        html.element(
                            .li, .class("muted"),
                            text: "… and \(elements.count - shownElements) more, in the document's JSON")
                    }
                }
            default:
                label(key, into: &html)
                scalar(value, into: &html)
            }
        }
    }

    private static func label(_ key: String?, into html: inout HTMLMarkup) {
        guard let key else { return }
        html.element(.span, .class("key"), text: key)
        html.text(": ")
    }

    private static func container(
        _ key: String?, summary: String, depth: Int, into html: inout HTMLMarkup, content: (inout HTMLMarkup) -> Void
    ) {
        func body(_ html: inout HTMLMarkup) {
            html.element(.summary) { html in
                label(key, into: &html)
                html.element(.small, text: summary)
            }
            html.element(.ul, .class("tree"), content: content)
        }
        if depth < unfoldedDepth {
            html.element(.details, .class("tree"), .open, content: body)
        } else {
            html.element(.details, .class("tree"), content: body)
        }
    }

    private static func scalar(_ value: JSONValue, into html: inout HTMLMarkup) {
        switch value {
        case .string(let text): html.element(.span, .class("string"), text: text)
        case .integer, .number: html.element(.span, .class("number"), text: value.jsonText(pretty: false))
        default: html.element(.span, .class("literal"), text: value.jsonText(pretty: false))
        }
    }
}
