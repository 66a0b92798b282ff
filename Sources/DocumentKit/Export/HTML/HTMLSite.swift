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
    /// `selected` (and with `allVersions` of every version), the history, the blobs. The
    /// pages of the newest versions show the values each changed, as far as
    /// `comparedDocumentBytes` of documents go (see ``comparedDocumentBytes``).
    package static func files(
        of bundle: DocumentBundle, selected: BundleVersion, allVersions: Bool, trusted: TrustedSigners?,
        comparedDocumentBytes: Int = comparedDocumentBytes
    ) throws -> [ExportedFile] {
        let versions = try BundleSummary.log(of: bundle.url)
        // What verify finds comes first, not on a second core beside the pages: both hold a
        // document's tree at their peak, and side by side the export of the 25,000-task
        // bench project peaked at 97.8 MiB, one after the other at 78.0 MiB, in the same
        // time (BENCHMARKS.md). Every version's document is rebuilt and checked (`verify`)
        // only when the site shows every one: otherwise the export reads one document, and
        // checks every record, signature and segment as `validate` does, so that it costs
        // what it shows however long the history (a deep check of 26,447 versions of the
        // bench project rebuilds 200 GB of documents).
        let verification = try BundleVerifier.verify(bundle.url, trusted: trusted, deep: allVersions)
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
        let footer = """
            An access copy of \(bundleName) (\(bundle.contentTypeIdentifier)): version \(selected.number) of \
            \(versions.count)\(allVersions ? " with every version's document" : ""), exported \
            \(DocumentDates.format(DocumentDates.now()).prefix(10)) by \(DocumentKitInfo.writer). The bundle \
            itself is the record; this site only shows it.
            """
        // Each page goes to disk framed as it is made, and is read back as it is written
        // out: a page of every version of a long history is not held in memory.
        let pages = try HTMLSpooledPages(fallbackSiteName: fallbackTitle, footer: footer)
        // One version's document at a time: read, rendered, let go. The selected version
        // comes first, and names the site.
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
            if isSelected { pages.siteName = rendered.title }
            for page in rendered.pages { try pages.add(page) }
            MemoryPressure.releaseFreedMemory()
        }
        let history = HTMLHistoryPages(
            pageSize: pageSize, versions: versions, report: verification, deeplyVerified: allVersions,
            documentPages: documentPages)
        try history.timelinePages(pages.add)
        try addVersionPages(
            of: bundle, history: history, comparing: allVersions ? .max : comparedDocumentBytes, to: pages)

        var files = pages.files
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

    /// The most bytes of documents the version pages read to show the values each version
    /// changed, newest first (`show`'s comparison of a version with its parent); older
    /// versions' pages list the changes their records name (`log`'s summary), so that an
    /// export of the head costs the same however long the history. Every version's values
    /// when the site shows every version's document, which reads them all anyway.
    package static let comparedDocumentBytes = 64 << 20

    /// A page for each version, newest first.
    private static func addVersionPages(
        of bundle: DocumentBundle, history: HTMLHistoryPages, comparing budget: Int, to pages: HTMLSpooledPages
    ) throws {
        let versions = history.versions
        // The last document read, by version id: the next (older) version's comparison
        // reads it again, as its own.
        var held: (id: String, data: Data)?
        var documentBytesRead = 0
        for (index, summary) in versions.enumerated() {
            let newer = index > 0 ? versions[index - 1].number : nil
            let older = index + 1 < versions.count ? versions[index + 1].number : nil
            guard documentBytesRead < budget, let version = try bundle.version(atPlace: summary.number) else {
                try pages.add(history.versionPage(recording: summary, newer: newer, older: older))
                continue
            }
            var read: (id: String, data: Data)?
            let detail = try VersionDetail(version, in: bundle) { bundle, wanted in
                if let held, held.id == wanted.id { return held.data }
                let data = try bundle.documentDataForParsing(of: wanted)
                documentBytesRead += data.count
                if wanted.id != version.id { read = (wanted.id, data) }
                return data
            }
            held = read
            try pages.add(history.versionPage(detail, newer: newer, older: older))
        }
    }
}
