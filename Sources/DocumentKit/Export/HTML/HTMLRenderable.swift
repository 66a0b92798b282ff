import Foundation

/// A document type that shows itself in an HTML export (`docctl export --format html`):
/// its page is what a person reads instead of its JSON. A type that does not adopt it is
/// shown as a collapsible tree of its JSON.
///
/// The page is written through ``HTMLDocumentPage``, whose markup escapes every string and
/// links only within the site; long lists go through ``HTMLDocumentPage/list(_:itemIDs:)``
/// so that they are split into pages of ``HTMLDocumentPage/pageSize`` items.
///
/// ```swift
/// extension Note: HTMLRenderable {
///     func renderHTML(into page: HTMLDocumentPage) {
///         page.title = name
///         page.section { html in
///             html.element(.p, .class("text"), text: text ?? "")
///             if let picture { html.blob(picture) }
///         }
///     }
/// }
/// ```
public protocol HTMLRenderable: CodableDocument {
    /// Writes the document's page: its title, then its sections and lists, in order.
    func renderHTML(into page: HTMLDocumentPage) throws
}

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

/// A list of a document's page, split into pages of at most `pageSize` items: the first on
/// the document's page, page `n` (from 2) in `<name>-<n>.html` beside it.
public struct HTMLPagedList: Sendable {
    /// The list's name as its pages' file names take it: `a`–`z`, `0`–`9` and `-` only.
    public let name: String
    /// The items' ids, in order.
    public let itemIDs: [String]
    public let pageSize: Int
    private let pageOfItem: [String: Int]
    /// The document page's folder and file name, where the list's first page is.
    let folder: String
    let firstPage: String

    init(name: String, itemIDs: [String], pageSize: Int, folder: String, firstPage: String) {
        self.folder = folder
        self.firstPage = firstPage
        let kept = String(
            name.lowercased().unicodeScalars.filter {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
            })
        self.name = kept.isEmpty ? "list" : kept
        self.itemIDs = itemIDs
        self.pageSize = max(1, pageSize)
        var pages: [String: Int] = [:]
        pages.reserveCapacity(itemIDs.count)
        for (index, id) in itemIDs.enumerated() where pages[id] == nil { pages[id] = index / self.pageSize }
        pageOfItem = pages
    }

    /// How many pages the list takes (at least one, which may be empty).
    public var pageCount: Int { max(1, (itemIDs.count + pageSize - 1) / pageSize) }

    func range(ofPage page: Int) -> Range<Int> {
        page * pageSize..<min(itemIDs.count, (page + 1) * pageSize)
    }

    /// The file of page `page` (from 0), from the site's root.
    package func path(ofPage page: Int) -> String {
        folder + (page == 0 ? firstPage : "\(name)-\(page + 1).html")
    }

    /// A link to the item `id` on its page; `nil` when the list has no such item.
    public func link(to id: String) -> HTMLLink? {
        pageOfItem[id].map { HTMLLink(path: path(ofPage: $0), fragment: id) }
    }
}
