import DocumentKit

/// A note's page in an HTML export (`notectl export --format html`): its name as the
/// title, its text as written, its picture shown.
extension Note: HTMLRenderable {
    func renderHTML(into page: HTMLDocumentPage) {
        page.title = name
        page.section { html in
            html.element(.article, .class("note-text")) { html in
                if let text, !text.isEmpty {
                    html.element(.p, .class("lead"), text: text)
                } else {
                    html.element(.p, .class("muted"), text: "This note has no text.")
                }
            }
            if let picture {
                html.element(.h2, text: "Picture")
                html.blob(picture)
            }
        }
    }
}
