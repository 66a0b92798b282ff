import Foundation

/// How a blob appears on a page: an image as an image, with the name it was attached
/// under as its alternative text; any other file as a link to its file in the site. Both
/// say the name, media type and size. A blob the site does not hold (the version lacks
/// it) is named, not linked.
enum HTMLBlobView {
    /// A blob reference as the document records it.
    struct Blob {
        var digest: String
        var name: String?
        var mediaType: String
        var size: UInt64

        /// The name a person reads: the recorded one, else the digest's first 12 digits.
        var shownName: String { name ?? "file \(digest.prefix(12))" }

        /// Whether browsers show it in an `img` (SVG there runs no script).
        var isImage: Bool {
            let type = mediaType.lowercased().split(separator: ";").first.map(String.init) ?? ""
            return [
                "image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/bmp", "image/svg+xml",
                "image/x-icon", "image/vnd.microsoft.icon"
            ].contains(type.trimmingCharacters(in: .whitespaces))
        }

        /// The blob a JSON object `{"$blob": …}` refers to, or `nil` when it is none.
        init?(json members: [String: JSONValue]) {
            guard case .string(let digest)? = members["$blob"] else { return nil }
            self.digest = digest
            if case .string(let name)? = members["name"] { self.name = name }
            if case .string(let type)? = members["mediaType"] { mediaType = type } else { mediaType = "" }
            switch members["size"] {
            case .integer(let size)?: self.size = UInt64(max(0, size))
            case .number(let size)?: self.size = size >= 0 && size < 1e19 ? UInt64(size) : 0
            default: size = 0
            }
        }

        init(digest: String, name: String?, mediaType: String, size: UInt64) {
            self.digest = digest
            self.name = name
            self.mediaType = mediaType
            self.size = size
        }
    }

    static func write(_ blob: Blob, into html: inout HTMLMarkup) {
        let link = html.context.blobPaths[blob.digest].map { HTMLLink(path: $0) }
        let details = "\(blob.mediaType.isEmpty ? "no media type" : blob.mediaType) · \(ByteCount.readable(blob.size))"
        if blob.isImage, let link {
            html.element(.figure, .class("blob image")) { html in
                html.element(.a, .link(link)) { html in
                    html.element(
                        .img, .source(link), .alt(blob.shownName), .attribute("loading", "lazy"))
                }
                html.element(.figcaption) { html in
                    html.element(.span, .class("name"), text: blob.shownName)
                    html.text(" ")
                    html.element(.small, text: details)
                }
            }
        } else {
            html.element(.span, .class(link == nil ? "blob file missing" : "blob file")) { html in
                html.link(to: link, .class("name"), text: blob.shownName)
                html.text(" ")
                html.element(.small, text: link == nil ? "\(details) · not in this version" : details)
            }
        }
    }
}
