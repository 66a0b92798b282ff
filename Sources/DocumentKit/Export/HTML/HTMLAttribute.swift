import Foundation

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
