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
