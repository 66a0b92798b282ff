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
        openTag(tag, attributes)
        try content(&self)
        if !tag.isVoid { html += "</\(tag.name)>" }
    }

    /// Appends an element holding `text`, escaped.
    public mutating func element(_ tag: HTMLTag, _ attributes: HTMLAttribute..., text: String) {
        openTag(tag, attributes)
        HTMLText.append(text, to: &html)
        if !tag.isVoid { html += "</\(tag.name)>" }
    }

    /// Appends an element without content (`img`, `br`, `hr`), or an empty one.
    public mutating func element(_ tag: HTMLTag, _ attributes: HTMLAttribute...) {
        openTag(tag, attributes)
        if !tag.isVoid { html += "</\(tag.name)>" }
    }

    /// Appends a link to `target` reading `text`, or `text` alone when there is no target
    /// (a record the export does not hold): a site never links to a page it lacks.
    public mutating func link(to target: HTMLLink?, _ attributes: HTMLAttribute..., text: String) {
        guard let target else {
            openTag(.span, attributes)
            HTMLText.append(text, to: &html)
            html += "</span>"
            return
        }
        openTag(.a, [.link(target)] + attributes)
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

    private mutating func openTag(_ tag: HTMLTag, _ attributes: [HTMLAttribute]) {
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
