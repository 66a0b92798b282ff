import Foundation

/// An access copy of a bundle (FORMAT.md §7, "HTML"): a static site a person opens in any
/// browser, from a folder or a zip, without the software, a server or a network.
///
/// ```text
/// index.html              the exported version's document, as its type renders it
/// tasks-2.html …          further pages of its long lists
/// files.html              every file the document refers to
/// history.html            the timeline of every version, and what verify found
/// versions/<n>/index.html a version: its record, signature and changes
/// versions/<n>/document.html, files.html …   every version's document (all versions)
/// blobs/<name>            the blobs, under their readable names
/// style.css, filter.js    the style and the optional filter script
/// ```
///
/// Every page is built from escaped text and links to the site's own files (``HTMLMarkup``);
/// file names come from the export alone, blobs' from ``ExportedBlobNames``, so no name in
/// a bundle reaches outside the site's folder.
package enum HTMLSite {
    /// Items of a list on a page: a page of the bench project's tasks is about 200 KB.
    package static let pageSize = 500
    /// The page a site opens on: the exported version's document.
    package static let entryPage = "index.html"

    /// The site's files, folders before their contents, sorted by path: the document of
    /// `selected` (and with `allVersions` of every version), the history, the blobs.
    package static func files(
        of bundle: DocumentBundle, selected: BundleVersion, allVersions: Bool, trusted: TrustedSigners?
    ) throws -> [ExportedFile] {
        let versions = try BundleSummary.log(of: bundle.url)
        // What verify finds (every object checked, every document decoded) comes first, not
        // on a second core beside the pages: both hold a document's tree at their peak, and
        // side by side the export of the 25,000-task bench project peaked at 97.8 MiB, one
        // after the other at 78.0 MiB, in the same time (BENCHMARKS.md).
        let verification = try BundleVerifier.verify(bundle.url, trusted: trusted)
        let shown: [BundleVersion] =
            allVersions
            ? [selected] + (try bundle.manifest.versions).reversed().filter { $0.id != selected.id } : [selected]
        // Blobs named as the newest version shown names them: a version's document is read
        // here only when it holds a blob no newer one does, as a bag of every version does.
        var blobNodes: [String: FileWrapper] = [:]
        var recorded: [String: [String]] = [:]
        for version in shown {
            let stored = ExportedFile.list(try bundle.tree(of: version))
            let digests = ExportedBlobNames.blobDigests(in: stored).filter { blobNodes[$0] == nil }
            guard !digests.isEmpty else { continue }
            let names = ExportedBlobNames.recordedNames(in: try bundle.documentData(of: version))
            for digest in digests {
                blobNodes[digest] = stored.first { $0.path == "\(VersionLayout.blobsFolder)/\(digest)" }?.node
                recorded[digest] = names[digest] ?? []
            }
        }
        let blobNames = ExportedBlobNames.exportedNames(blobs: blobNodes.keys.sorted(), recorded: recorded)
        let blobPaths = blobNames.mapValues { "blobs/\($0[0])" }

        let bundleName = bundle.url.lastPathComponent
        let fallbackTitle = bundle.url.deletingPathExtension().lastPathComponent
        let headNumber = bundle.headVersion.number
        var documentPages: [Int: String] = [:]
        for version in shown {
            documentPages[version.number] =
                version.id == selected.id ? entryPage : "versions/\(version.number)/document.html"
        }
        var pages: [HTMLSitePage] = []
        var siteName = fallbackTitle
        // One version's document at a time: read, rendered, let go.
        for version in shown {
            let data = try bundle.documentData(of: version)
            let isSelected = version.id == selected.id
            let folder = isSelected ? "" : "versions/\(version.number)/"
            let view = HTMLDocumentView(
                context: HTMLPageContext(base: isSelected ? "" : "../../", blobPaths: blobPaths),
                pageSize: pageSize, folder: folder, mainPage: isSelected ? entryPage : "document.html",
                fallbackTitle: fallbackTitle,
                versionLine: { html in
                    html.element(.p, .class("muted")) { html in
                        html.link(
                            to: HTMLLink(path: HTMLHistoryPages.versionPage(version.number)),
                            text: "Version \(version.number)")
                        html.text(version.number == headNumber ? " (the newest)" : " of \(headNumber)")
                        html.text(", saved ")
                        html.time(version.created)
                        html.text(" by \(version.author) · ")
                        html.link(to: HTMLLink(path: folder + "files.html"), text: "Files")
                        if !isSelected {
                            html.text(" · ")
                            html.link(to: HTMLLink(path: "index.html"), text: "The exported version")
                        }
                    }
                })
            let rendered = view.pages(document: data, version: version, contentType: bundle.contentTypeIdentifier)
            if isSelected { siteName = rendered.title }
            pages += rendered.pages
            MemoryPressure.releaseFreedMemory()
        }
        let history = HTMLHistoryPages(
            pageSize: pageSize, versions: versions, report: verification, documentPages: documentPages)
        pages += history.timelinePages()
        let byID = Dictionary(try bundle.manifest.versions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Oldest first, holding the last document read: each next one is decoded from it,
        // one link of its chain (15 places in 16), not through the whole chain twice.
        var held: HeldObject?
        for index in versions.indices.reversed() {
            guard let version = byID[versions[index].id] else { continue }
            var read: HeldObject?
            let detail = try VersionDetail(version, in: bundle) { bundle, wanted in
                let data = try bundle.documentDataForParsing(of: wanted, reaching: held)
                if wanted.id == version.id {
                    read = HeldObject(digest: try bundle.documentDigest(of: wanted), data: data)
                }
                return data
            }
            held = read ?? held
            pages.append(
                history.versionPage(
                    detail, newer: index > 0 ? versions[index - 1].number : nil,
                    older: index + 1 < versions.count ? versions[index + 1].number : nil))
        }

        let count = try bundle.manifest.versions.count
        let frame = HTMLPageFrame(
            siteName: siteName,
            footer: """
                An access copy of \(bundleName) (\(bundle.contentTypeIdentifier)): version \(selected.number) of \
                \(count)\(allVersions ? " with every version's document" : ""), exported \
                \(DocumentDates.format(DocumentDates.now()).prefix(10)) by \(DocumentKitInfo.writer). The bundle \
                itself is the record; this site only shows it.
                """)
        // Each page's body let go as its framed file is made: a long list's pages are not
        // held twice.
        var files: [ExportedFile] = []
        files.reserveCapacity(pages.count + 2)
        pages.reverse()
        while let page = pages.popLast() {
            files.append(
                ExportedFile(path: page.path, node: FileWrapper(regularFileWithContents: Data(frame.html(page).utf8))))
        }
        files.append(
            ExportedFile(
                path: HTMLStyle.styleSheetName,
                node: FileWrapper(regularFileWithContents: Data(HTMLStyle.styleSheet.utf8))))
        files.append(
            ExportedFile(
                path: HTMLStyle.scriptName, node: FileWrapper(regularFileWithContents: Data(HTMLStyle.script.utf8))))
        for (digest, path) in blobPaths {
            guard let node = blobNodes[digest] else { continue }
            files.append(ExportedFile(path: path, node: node))
        }
        var folders = Set<String>()
        for file in files {
            var parent = PathText.parent(of: file.path)
            while !parent.isEmpty, folders.insert(parent).inserted { parent = PathText.parent(of: parent) }
        }
        files += folders.map { ExportedFile(path: $0, node: nil) }
        return files.sorted { $0.path < $1.path }
    }
}
