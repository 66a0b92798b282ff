import Foundation

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
