import Foundation

/// Markup for a page of an HTML export, built so that nothing from a bundle can become
/// markup of its own: text is escaped (``HTMLText``), elements are the few ``HTMLTag``
/// names (no `script`, `style`, `iframe` or form), attributes the few ``HTMLAttribute``
/// kinds (no event handlers), and the only URLs are ``HTMLLink``s, which the export makes
/// to files of the site itself.
///
/// ```swift
/// page.section { html in
///     html.element(.h2, text: "Summary")
///     html.element(.p, .class("summary"), text: project.summary)
/// }
/// ```
public struct HTMLMarkup {
    /// The markup written so far.
    package private(set) var html = ""
    /// Where links lead from the page being written, and the site's blobs.
    package let context: HTMLPageContext

    package init(context: HTMLPageContext) {
        self.context = context
    }

    /// Appends `text`, escaped.
    public mutating func text(_ text: String) {
        HTMLText.append(text, to: &html)
    }

    /// Appends an element holding what `content` writes.
    public mutating func element(
        _ tag: HTMLTag, _ attributes: HTMLAttribute..., content: (inout HTMLMarkup) throws -> Void
    ) rethrows {
        open(tag, attributes)
        try content(&self)
        if !tag.isVoid { html += "</\(tag.name)>" }
    }

    /// Appends an element holding `text`, escaped.
    public mutating func element(_ tag: HTMLTag, _ attributes: HTMLAttribute..., text: String) {
        open(tag, attributes)
        HTMLText.append(text, to: &html)
        if !tag.isVoid { html += "</\(tag.name)>" }
    }

    /// Appends an element without content (`img`, `br`, `hr`), or an empty one.
    public mutating func element(_ tag: HTMLTag, _ attributes: HTMLAttribute...) {
        open(tag, attributes)
        if !tag.isVoid { html += "</\(tag.name)>" }
    }

    /// Appends a link to `target` reading `text`, or `text` alone when there is no target
    /// (a record the export does not hold): a site never links to a page it lacks.
    public mutating func link(to target: HTMLLink?, _ attributes: HTMLAttribute..., text: String) {
        guard let target else {
            open(.span, attributes)
            HTMLText.append(text, to: &html)
            html += "</span>"
            return
        }
        open(.a, [.link(target)] + attributes)
        HTMLText.append(text, to: &html)
        html += "</a>"
    }

    /// Appends a time as `<time datetime="…">`: the day (`2026-01-08`) when `dateOnly`,
    /// else the UTC time (`2026-01-08 09:30 UTC`).
    public mutating func time(_ date: Date, dateOnly: Bool = false) {
        let text = DocumentDates.format(date)
        let shown =
            dateOnly
            ? String(text.prefix(10))
            : text.replacingOccurrences(of: "T", with: " ").replacingOccurrences(
                of: "Z", with: " UTC")
        element(.time, .attribute("datetime", text), text: shown)
    }

    /// Appends a blob: an image as an image (its recorded name as its alternative text),
    /// any other file as a link to it; both with name, media type and size.
    public mutating func blob(_ reference: BlobReference) {
        HTMLBlobView.write(
            HTMLBlobView.Blob(
                digest: reference.digest.hex, name: reference.name, mediaType: reference.mediaType,
                size: reference.size), into: &self)
    }

    private mutating func open(_ tag: HTMLTag, _ attributes: [HTMLAttribute]) {
        html += "<"
        html += tag.name
        for attribute in attributes {
            html += " "
            html += attribute.name
            html += "=\""
            switch attribute.value {
            case .text(let value): HTMLText.append(value, to: &html)
            case .link(let link): HTMLText.append(link.relative(from: context.base), to: &html)
            }
            html += "\""
        }
        html += ">"
    }

    /// Appends markup this module made, already safe.
    package mutating func appendTrusted(_ markup: String) {
        html += markup
    }
}

/// The elements a page may hold: those that show content. None runs code, loads from
/// elsewhere or sends anything (no `script`, `style`, `iframe`, `object`, `form`).
public struct HTMLTag: Sendable, Equatable {
    package let name: String
    package let isVoid: Bool

    private init(_ name: String, isVoid: Bool = false) {
        self.name = name
        self.isVoid = isVoid
    }

    public static let a = HTMLTag("a")
    public static let article = HTMLTag("article")
    public static let aside = HTMLTag("aside")
    public static let br = HTMLTag("br", isVoid: true)
    public static let code = HTMLTag("code")
    public static let dd = HTMLTag("dd")
    public static let del = HTMLTag("del")
    public static let details = HTMLTag("details")
    public static let div = HTMLTag("div")
    public static let dl = HTMLTag("dl")
    public static let dt = HTMLTag("dt")
    public static let em = HTMLTag("em")
    public static let figcaption = HTMLTag("figcaption")
    public static let figure = HTMLTag("figure")
    public static let footer = HTMLTag("footer")
    public static let h2 = HTMLTag("h2")
    public static let h3 = HTMLTag("h3")
    public static let h4 = HTMLTag("h4")
    public static let header = HTMLTag("header")
    static let h1 = HTMLTag("h1")
    static let title = HTMLTag("title")
    public static let hr = HTMLTag("hr", isVoid: true)
    public static let img = HTMLTag("img", isVoid: true)
    public static let ins = HTMLTag("ins")
    public static let li = HTMLTag("li")
    public static let mark = HTMLTag("mark")
    public static let nav = HTMLTag("nav")
    public static let ol = HTMLTag("ol")
    public static let p = HTMLTag("p")
    public static let pre = HTMLTag("pre")
    public static let section = HTMLTag("section")
    public static let small = HTMLTag("small")
    public static let span = HTMLTag("span")
    public static let strong = HTMLTag("strong")
    public static let summary = HTMLTag("summary")
    public static let table = HTMLTag("table")
    public static let tbody = HTMLTag("tbody")
    public static let td = HTMLTag("td")
    public static let th = HTMLTag("th")
    public static let thead = HTMLTag("thead")
    public static let time = HTMLTag("time")
    public static let tr = HTMLTag("tr")
    public static let ul = HTMLTag("ul")
}

/// An attribute of an element: a kind that shows or names content, never an event handler
/// or a URL from the document. Values are escaped when written.
public struct HTMLAttribute: Sendable {
    enum Value: Sendable {
        case text(String)
        case link(HTMLLink)
    }
    let name: String
    let value: Value

    private init(_ name: String, _ value: Value) {
        self.name = name
        self.value = value
    }

    /// Classes, for the export's style sheet: `task`, `status-done`.
    public static func `class`(_ names: String) -> HTMLAttribute { HTMLAttribute("class", .text(names)) }
    /// An anchor others link to (``HTMLPagedList/link(to:)`` makes the links).
    public static func id(_ id: String) -> HTMLAttribute { HTMLAttribute("id", .text(id)) }
    /// Text shown on hover.
    public static func title(_ text: String) -> HTMLAttribute { HTMLAttribute("title", .text(text)) }
    /// An image's alternative text.
    public static func alt(_ text: String) -> HTMLAttribute { HTMLAttribute("alt", .text(text)) }
    /// A language tag (`lang="de"`).
    public static func lang(_ tag: String) -> HTMLAttribute { HTMLAttribute("lang", .text(tag)) }
    /// `data-NAME`, for the page's filter and its style: NAME keeps only `a`–`z`, `0`–`9`
    /// and `-`.
    public static func data(_ name: String, _ value: String) -> HTMLAttribute {
        let kept = String(
            name.lowercased().unicodeScalars.filter {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
            })
        return HTMLAttribute("data-" + kept, .text(value))
    }
    /// `open`, for a `details` shown unfolded.
    public static let open = HTMLAttribute("open", .text(""))
    /// A link's target: a file of the site.
    public static func link(_ target: HTMLLink) -> HTMLAttribute { HTMLAttribute("href", .link(target)) }
    /// An image's source: a file of the site.
    public static func source(_ target: HTMLLink) -> HTMLAttribute { HTMLAttribute("src", .link(target)) }

    /// Attributes this module writes with fixed names (`datetime`, `loading`, `scope`, `start`).
    package static func attribute(_ name: String, _ value: String) -> HTMLAttribute {
        HTMLAttribute(name, .text(value))
    }
}

/// A link to a file of the export's own site (a page, an anchor on it, a blob), made by
/// the export: the only URLs its pages hold, relative, so the site works from any folder,
/// a zip's or a `file://` one.
public struct HTMLLink: Sendable, Equatable {
    /// The file's path from the site's root: `index.html`, `blobs/photo.png`.
    package let path: String
    /// An anchor on the page (`task-6F9…`), without `#`.
    package let fragment: String?

    package init(path: String, fragment: String? = nil) {
        self.path = path
        self.fragment = fragment
    }

    /// The link as written on a page `base` below the root (`""`, `"../"`).
    func relative(from base: String) -> String {
        base + HTMLText.urlPath(path) + (fragment.map { "#" + HTMLText.urlPath($0) } ?? "")
    }
}

/// What markup needs to know of the page it is written for.
package final class HTMLPageContext: Sendable {
    /// The way from the page to the site's root: `""`, or `"../"` once per folder.
    package let base: String
    /// Each blob's file in the site, by digest.
    package let blobPaths: [String: String]

    package init(base: String, blobPaths: [String: String]) {
        self.base = base
        self.blobPaths = blobPaths
    }
}
