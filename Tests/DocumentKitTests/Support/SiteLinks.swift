import Foundation

/// The links of an exported HTML site, read from its files as a browser resolves them:
/// each `href` and `src` against the page's folder, percent-decoded, and each `#fragment`
/// against the ids of the page it names.
enum SiteLinks {
    /// Every file (not folder) of the site at `folder`, by path from it, sorted.
    static func files(in folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                found.append(path)
            }
        }
        return found.sorted()
    }

    /// Every page of the site at `folder`, by path from it, sorted.
    static func pages(in folder: URL) -> [String] {
        files(in: folder).filter { $0.hasSuffix(".html") }
    }

    /// Every `href` and `src` value of `html`, unescaped.
    static func targets(in html: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\s(?:href|src)="([^"]*)""#)
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).map { match in
            unescape(String(html[Range(match.range(at: 1), in: html)!]))
        }
    }

    /// Every attribute of `html`'s tags whose name starts with `on` (an event handler),
    /// values set aside: `onerror` inside an escaped `alt` is text, not an attribute.
    static func eventHandlers(in html: String) -> [String] {
        let tags = try! NSRegularExpression(pattern: #"<[a-zA-Z][^>]*>"#)
        let values = try! NSRegularExpression(pattern: #""[^"]*"|'[^']*'"#)
        let handlers = try! NSRegularExpression(pattern: #"\s(on[a-zA-Z]+)\s*="#)
        var found: [String] = []
        for match in tags.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let tag = String(html[Range(match.range, in: html)!])
            let bare = values.stringByReplacingMatches(
                in: tag, range: NSRange(tag.startIndex..., in: tag), withTemplate: "\"\"")
            found += handlers.matches(in: bare, range: NSRange(bare.startIndex..., in: bare)).map {
                String(bare[Range($0.range(at: 1), in: bare)!])
            }
        }
        return found
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// What does not resolve: `page: target (why)`, for every page of the site.
    static func unresolved(in folder: URL) throws -> [String] {
        var problems: [String] = []
        var ids: [String: Set<String>] = [:]
        func idsOf(_ page: String) throws -> Set<String> {
            if let known = ids[page] { return known }
            let html = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            let pattern = try! NSRegularExpression(pattern: #"\sid="([^"]*)""#)
            let found = Set(
                pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
                    unescape(String(html[Range($0.range(at: 1), in: html)!]))
                })
            ids[page] = found
            return found
        }
        for page in pages(in: folder) {
            let html = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            for target in targets(in: html) {
                if target.contains(":") || target.hasPrefix("//") {
                    problems.append("\(page): \(target) (not a file of the site)")
                    continue
                }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let fragment = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : nil
                // The path from the site's root, `..` taken back, as a browser resolves it.
                var components =
                    path.isEmpty
                    ? page.split(separator: "/").map(String.init)
                    : page.split(separator: "/").dropLast().map(String.init)
                var outside = false
                for component in path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
                where !path.isEmpty {
                    switch component {
                    case "..": if components.popLast() == nil { outside = true }
                    case ".", "": continue
                    default: components.append(component)
                    }
                }
                guard !outside else {
                    problems.append("\(page): \(target) (outside the site)")
                    continue
                }
                let relative = components.joined(separator: "/")
                var isFolder: ObjCBool = false
                guard
                    FileManager.default.fileExists(
                        atPath: folder.appendingPathComponent(relative).path, isDirectory: &isFolder),
                    !isFolder.boolValue
                else {
                    problems.append("\(page): \(target) (no such file)")
                    continue
                }
                if let fragment, relative.hasSuffix(".html"), !(try idsOf(relative)).contains(fragment) {
                    problems.append("\(page): \(target) (no id '\(fragment)')")
                }
            }
        }
        return problems
    }
}
