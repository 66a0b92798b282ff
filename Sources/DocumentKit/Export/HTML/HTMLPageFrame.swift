import Foundation

/// A page of the site before its frame: its path from the site's root, title, place in
/// the navigation, and the markup of its content.
struct HTMLSitePage {
    var path: String
    var title: String
    var section: HTMLPageFrame.Section
    var body: String
}

/// The frame of every page of an HTML export: the head (character set, viewport, a
/// content security policy that lets the page load only files of its own site and run
/// only the site's script), the site's header and navigation, the main content, and a
/// footer saying what the site is a copy of.
struct HTMLPageFrame {
    /// The sections the navigation names.
    enum Section {
        case document, files, history, other
    }

    /// The site's name: the head document's title.
    var siteName: String
    /// What the footer says the site is a copy of: `garden.dkproj, version 8 of 8, exported
    /// 2026-01-01 by DocumentKit 0.3.0`.
    var footer: String

    /// Nothing may load from outside the site, nothing inline may run, and no form or
    /// `base` may send a reader elsewhere: even text that escaped escaping could do nothing.
    static let contentSecurityPolicy =
        "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'"

    /// `page` in its frame.
    func html(_ page: HTMLSitePage) -> String {
        let (path, title, section, body) = (page.path, page.title, page.section, page.body)
        let base = String(repeating: "../", count: path.split(separator: "/").count - 1)
        let context = HTMLPageContext(base: base, blobPaths: [:])
        var html = HTMLMarkup(context: context)
        html.appendTrusted(
            """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="color-scheme" content="light dark">
            <meta name="generator" content="\(HTMLText.escape(DocumentKitInfo.writer))">

            """)
        html.element(.title, text: title == siteName ? title : "\(title) · \(siteName)")
        html.appendTrusted(
            """

            <link rel="stylesheet" href="\(base)\(HTMLStyle.styleSheetName)">
            <script src="\(base)\(HTMLStyle.scriptName)" defer></script>
            </head>
            <body>
            <a class="skip" href="#content">Skip to the content</a>

            """)
        html.element(.header, .class("site")) { html in
            html.link(to: HTMLLink(path: "index.html"), .class("home"), text: siteName)
            html.element(.nav, .attribute("aria-label", "Site")) { html in
                html.element(.ul) { html in
                    for (name, target, item) in [
                        ("Document", "index.html", Section.document), ("Files", "files.html", .files),
                        ("History", "history.html", .history)
                    ] {
                        html.element(.li) { html in
                            if item == section {
                                html.link(to: HTMLLink(path: target), .attribute("aria-current", "page"), text: name)
                            } else {
                                html.link(to: HTMLLink(path: target), text: name)
                            }
                        }
                    }
                }
            }
        }
        html.appendTrusted("\n<main id=\"content\">\n")
        html.element(.h1, text: title)
        html.appendTrusted(body)
        html.appendTrusted("\n</main>\n")
        html.element(.footer, .class("site"), text: footer)
        html.appendTrusted("\n</body>\n</html>\n")
        return html.html
    }
}
