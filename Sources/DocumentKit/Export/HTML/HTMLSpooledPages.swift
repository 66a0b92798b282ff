import Foundation

/// The pages of an HTML export as they are made: each framed (``HTMLPageFrame``) and set
/// aside on disk (``SpoolFile``) at once, and listed as a file that streams its bytes back
/// when the export writes it. Memory holds a path and a range a page, so a site with a
/// page for each of 100,000 versions is written in the memory of one page.
final class HTMLSpooledPages {
    /// The site's name, which every page's frame shows: the exported document's title,
    /// set once that document is rendered, before any page is added.
    var siteName: String
    private let footer: String
    private let spool: SpoolFile
    /// The pages added, in order.
    private(set) var files: [ExportedFile] = []

    init(fallbackSiteName: String, footer: String) throws {
        siteName = fallbackSiteName
        self.footer = footer
        spool = try SpoolFile(in: DocumentKitConfiguration.current.temporaryFolder)
    }

    /// Frames `page` and sets it aside.
    func add(_ page: HTMLSitePage) throws {
        let html = HTMLPageFrame(siteName: siteName, footer: footer).html(page)
        let range = try spool.append(Data(html.utf8))
        let spool = spool
        files.append(
            ExportedFile(
                path: page.path,
                node: FileWrapper(size: range.upperBound - range.lowerBound, streaming: { try spool.stream(range, $0) })
            ))
    }
}
