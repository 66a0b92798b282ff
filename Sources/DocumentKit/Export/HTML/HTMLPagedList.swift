import Foundation

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
