import Foundation

/// Writes one version of a bundle out as ordinary files, in a folder or an archive that
/// `unzip`, `tar` and any other tool reads. The output appears atomically and is never
/// written over unless asked; the bundle is only read.
public enum BundleExporter {
    /// What an export wrote.
    public struct Result: Codable, Equatable, Sendable {
        public var output: String
        public var format: ExportFormat
        public var version: Int
        public var files: Int
        public var bytes: UInt64
    }

    /// Exports the version named `version` (default: the head) of the bundle at `url`;
    /// with `allVersions` (a bag or a site only), every version. With `dryRun`, everything
    /// is checked (the version, the output's place) and counted, and nothing is written.
    ///
    /// An HTML export (``ExportFormat/html``) is a folder, or a zip when the output's name
    /// ends in `.zip`; `accessCopy` adds the same site to a bag, under `data/access/`.
    /// Both show each version's signature as `trusted` names its signers (as `verify` does).
    public static func export(
        _ url: URL, version: String? = nil, format: ExportFormat, to output: URL, replace: Bool,
        allVersions: Bool = false, dryRun: Bool = false, accessCopy: Bool = false, trusted: TrustedSigners? = nil
    ) throws -> Result {
        if allVersions, ![.bagit, .html].contains(format) {
            throw DocumentKitError(.usage, "every version is exported only to a BagIt bag or an HTML site")
        }
        if allVersions, version != nil {
            throw DocumentKitError(.usage, "every version is exported, so no one version can be named")
        }
        if accessCopy, format != .bagit {
            throw DocumentKitError(.usage, "an access copy is added only to a BagIt bag; an HTML export is one")
        }
        let bundle = try DocumentBundle(contentsOf: url)
        let selected = try version.map(bundle.version(named:)) ?? bundle.headVersion
        let files = [.bagit, .html].contains(format) ? [] : try ExportedFile.list(version: selected, of: bundle)
        try AtomicReplacement.refuseExisting(output, replace: replace)
        var result = Result(output: output.path, format: format, version: selected.number, files: 0, bytes: 0)
        let site =
            format == .html || accessCopy
            ? try HTMLSite.files(of: bundle, selected: selected, allVersions: allVersions, trusted: trusted) : []
        let versions = allVersions ? try bundle.manifest.versions : [selected]
        if dryRun {
            let counted =
                switch format {
                case .bagit:
                    try BagWriter.contents(versions, allVersions: allVersions, of: bundle).payload + site
                case .html: site
                default: files.filter { format != .json || $0.path == VersionLayout.documentName }
                }
            let written = counted.filter { $0.node != nil }
            (result.files, result.bytes) = (written.count, written.reduce(0) { $0 + ($1.node?.fileSize ?? 0) })
            return result
        }
        if format == .bagit {
            (result.files, result.bytes) = try BagWriter.write(
                versions, allVersions: allVersions, of: bundle, to: output, replace: replace,
                accessCopy: accessCopy ? site : nil)
            return result
        }
        // The JSON format writes the document alone.
        try ProgressMeter.phase(
            .writing, counting: .written,
            totalBytes: (format == .html ? site : files).filter {
                format != .json || $0.path == VersionLayout.documentName
            }
            .reduce(0) { $0 + ($1.node?.fileSize ?? 0) }
        ) {
            if format == .html {
                (result.files, result.bytes) =
                    entryPage(of: .html, at: output) == nil
                    ? try writeArchive(
                        site, format: .html, modificationTime: Int64(selected.created.timeIntervalSince1970),
                        to: output, replace: replace)
                    : try ExportedFolder.write(site, to: output, replace: replace)
                return
            }
            try write(files, of: selected, in: bundle, format: format, to: output, replace: replace, into: &result)
        }
        return result
    }

    /// Where a person opens what an export of `format` to `output` writes: the site's
    /// `index.html` for an HTML export to a folder; `nil` for any other export, an HTML
    /// export to a name ending in `.zip` (a zip of the site) among them.
    public static func entryPage(of format: ExportFormat, at output: URL) -> URL? {
        guard format == .html, !output.lastPathComponent.lowercased().hasSuffix(".zip") else { return nil }
        return output.appendingPathComponent(HTMLSite.entryPage)
    }

    private static func write(
        _ files: [ExportedFile], of selected: BundleVersion, in bundle: DocumentBundle, format: ExportFormat,
        to output: URL, replace: Bool, into result: inout Result
    ) throws {
        switch format {
        case .json:
            let data = try bundle.documentData(of: selected)
            try writeFile(data, to: output, replace: replace)
            ProgressMeter.advance(.written, by: data.count)
            result.files = 1
            result.bytes = UInt64(data.count)
        case .dir:
            (result.files, result.bytes) = try ExportedFolder.write(files, to: output, replace: replace)
        case .bagit, .html:
            break
        case .zip, .tar, .tarGzip, .tarZstd:
            (result.files, result.bytes) = try writeArchive(
                files, format: format, modificationTime: Int64(selected.created.timeIntervalSince1970), to: output,
                replace: replace)
        }
    }

    private static func writeFile(_ data: Data, to output: URL, replace: Bool) throws {
        let file = try AtomicReplacement(destination: output, followingLinks: false)
        try file.file.write(data)
        if replace {
            try file.commit(mode: AtomicReplacement.defaultMode())
        } else {
            try file.commitWithoutReplacing(mode: AtomicReplacement.defaultMode())
        }
    }

    private static func writeArchive(
        _ files: [ExportedFile], format: ExportFormat, modificationTime: Int64, to output: URL, replace: Bool
    ) throws -> (Int, UInt64) {
        let temporary = try AtomicReplacement(destination: output, followingLinks: false)
        let written = try writeArchive(
            files, format: format, modificationTime: modificationTime, to: temporary.file.descriptor,
            named: output.relativePath)
        if replace {
            try temporary.commit(mode: AtomicReplacement.defaultMode())
        } else {
            try temporary.commitWithoutReplacing(mode: AtomicReplacement.defaultMode())
        }
        return written
    }

    /// Writes the archive of `files` in sequence to `descriptor` (a file, or a pipe: no
    /// format here seeks back), which messages name `name`.
    static func writeArchive(
        _ files: [ExportedFile], format: ExportFormat, modificationTime: Int64, to descriptor: Int32, named name: String
    ) throws -> (Int, UInt64) {
        let archiveFormat: ArchiveWriteFormat =
            switch format {
            case .tar: .tar
            case .tarGzip: .tarGzip
            case .tarZstd: .tarZstd
            default: .zip
            }
        var bytes: UInt64 = 0
        try DocumentKitError.located(at: name) {
            let writer = try ArchiveWriter(fileDescriptor: descriptor, path: name, format: archiveFormat)
            // Zip entry times are local time; leaving them unset keeps zips identical in
            // every time zone. Tar times are UTC: they carry the version's time.
            let time: Int64? = format == .zip ? nil : modificationTime
            for file in files {
                if let node = file.node {
                    // A site's pages, style and script are text; its blobs are stored as they are.
                    let text = format == .html ? [".json", ".html", ".css", ".js"] : [".json"]
                    let compression: EntryCompression =
                        text.contains(where: { file.path.hasSuffix($0) })
                            && (format != .html || !file.path.hasPrefix("blobs/"))
                        ? .deflate : .store
                    try writer.addFile(
                        name: file.path, size: node.fileSize ?? 0, mode: 0o644, modificationTime: time,
                        compression: compression
                    ) { sink in
                        try node.streamContents { try sink.write($0) }
                    }
                    bytes += node.fileSize ?? 0
                } else {
                    try writer.addDirectory(name: file.path, mode: 0o755, modificationTime: time)
                }
            }
            try writer.finish()
        }
        return (files.filter { $0.node != nil }.count, bytes)
    }
}

extension ExportFormat {
    /// The format a file's name asks for by its extension (`x.tar.gz`, `x.tgz`, `x.zip`,
    /// `x.json`; `x.html`, a site's folder, and `x.html.zip`, a site as a zip); `nil` for any
    /// other name, and for a folder's.
    public init?(fileName: String) {
        let name = fileName.lowercased()
        let byExtension: [(String, ExportFormat)] = [
            (".html.zip", .html), (".html", .html), (".tar.gz", .tarGzip), (".tgz", .tarGzip), (".tar.zst", .tarZstd),
            (".tzst", .tarZstd),
            (".tar", .tar), (".zip", .zip), (".json", .json)
        ]
        guard let match = byExtension.first(where: { name.hasSuffix($0.0) && name.count > $0.0.count }) else {
            return nil
        }
        self = match.1
    }
}
