import Foundation

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
