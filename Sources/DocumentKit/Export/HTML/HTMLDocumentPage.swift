import Foundation

/// One document's page in an HTML export, as its type writes it (``HTMLRenderable``): a
/// title, then sections and paged lists in the order written. The first page of each list
/// is on the document's page; the rest are pages of their own (`tasks-2.html`), linked
/// from one another.
public final class HTMLDocumentPage {
    /// The page's heading and title: by default the bundle's file name.
    public var title: String
    /// How many items of a list a page shows: pages stay small (a few hundred KB) however
    /// long the list.
    public let pageSize: Int
    /// What was written, in order.
    package private(set) var parts: [Part] = []
    package let context: HTMLPageContext
    /// The page's folder from the site's root (`""`, `versions/3/`) and its file name.
    package let folder: String
    package let fileName: String

    package enum Part {
        case markup(String)
        case list(HTMLPagedList, heading: String, pages: [String])
    }

    /// The parts written, taken out of the page: a caller that turns them into pages lets
    /// each go as it does, so that a long list's text is not held twice.
    package func takeParts() -> [Part] {
        defer { parts = [] }
        return parts
    }

    package init(title: String, pageSize: Int, context: HTMLPageContext, folder: String, fileName: String) {
        self.title = title
        self.pageSize = pageSize
        self.context = context
        self.folder = folder
        self.fileName = fileName
    }

    /// Writes a part of the page.
    public func section(_ write: (inout HTMLMarkup) throws -> Void) rethrows {
        var markup = HTMLMarkup(context: context)
        try write(&markup)
        parts.append(.markup(markup.html))
    }

    /// A list of items, each named by an id unique on the page (`task-<uuid>`), in order:
    /// declared before anything is written, so that any part can link to an item on
    /// whichever page it falls. `name` (`tasks`) names the list's pages.
    public func list(_ name: String, itemIDs: [String]) -> HTMLPagedList {
        HTMLPagedList(name: name, itemIDs: itemIDs, pageSize: pageSize, folder: folder, firstPage: fileName)
    }

    /// Writes `list` under `heading`: `item` writes the item at each index, inside an
    /// `li` holding its id.
    public func write(_ list: HTMLPagedList, heading: String, item: (inout HTMLMarkup, Int) throws -> Void) rethrows {
        var pages: [String] = []
        for page in 0..<list.pageCount {
            var markup = HTMLMarkup(context: context)
            let range = list.range(ofPage: page)
            for index in range {
                markup.appendTrusted("<li id=\"\(HTMLText.escape(list.itemIDs[index]))\">")
                try item(&markup, index)
                markup.appendTrusted("</li>\n")
            }
            pages.append(markup.html)
        }
        parts.append(.list(list, heading: heading, pages: pages))
    }
}
