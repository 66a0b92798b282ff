import Foundation

extension BundleExporter {
    /// Exports the version named `version` (default: the head) of the bundle at `url` to the
    /// open `descriptor` (standard output, a pipe), in sequence: a zip, a tar (plain,
    /// gzip or zstd), the JSON alone, or an HTML site as a zip. Messages name the stream `name`.
    ///
    /// Unlike an export to a file, nothing can be withdrawn once written: the version is
    /// read and its files checked for existence first, and a blob whose bytes do not match
    /// its digest stops the stream there (the consumer sees an archive without its end).
    public static func export(
        _ url: URL, version: String? = nil, format: ExportFormat, toFileDescriptor descriptor: Int32,
        named name: String = "standard output", trusted: TrustedSigners? = nil
    ) throws -> Result {
        guard ![.dir, .bagit].contains(format) else {
            throw DocumentKitError(.usage, "a \(format.rawValue) export writes a folder, not a stream")
        }
        let bundle = try DocumentBundle(contentsOf: url)
        let selected = try version.map(bundle.version(named:)) ?? bundle.headVersion
        var result = Result(output: "-", format: format, version: selected.number, files: 0, bytes: 0)
        if format == .json {
            let data = try bundle.documentData(of: selected)
            try ProgressMeter.phase(.writing, counting: .written, totalBytes: UInt64(data.count)) {
                try ByteStream(descriptor: descriptor, name: name).write(data)
            }
            result.files = 1
            result.bytes = UInt64(data.count)
            return result
        }
        let files =
            format == .html
            ? try HTMLSite.files(of: bundle, selected: selected, allVersions: false, trusted: trusted)
            : try ExportedFile.list(version: selected, of: bundle)
        try ProgressMeter.phase(
            .writing, counting: .written, totalBytes: files.reduce(0) { $0 + ($1.node?.fileSize ?? 0) }
        ) {
            (result.files, result.bytes) = try writeArchive(
                files, format: format, modificationTime: Int64(selected.created.timeIntervalSince1970),
                to: descriptor, named: name)
        }
        return result
    }
}
