import Foundation

/// Rebuilds a bundle from a bag of every version (`export --format bagit --all-versions`;
/// FORMAT.md §7, "BagIt"): every version, with its id, parents, author, date, message and
/// signature, from the record `documentkit/versions.json` names for it, and its files
/// from the payload files it maps them to, once the bag checks out (``BagReader``). The
/// copy exchanges with the bundle the bag was made of, as a copy imported from its OCFL
/// object does (``OCFLImporter``).
public enum BagImporter {
    /// Whether `url` is a bag of every version that records each version's files and record
    /// (what `export --all-versions` writes after 0.3.0). An older bag of every version, or a bag of
    /// one version, is imported as a folder is: its newest version, as a new bundle.
    public static func holdsHistory(_ url: URL) -> Bool {
        guard SystemCall.linkStatus(url.appendingPathComponent("bagit.txt").path) != nil,
            let entries = try? versionEntries(url)
        else { return false }
        return !entries.isEmpty && entries.allSatisfy { $0.files != nil && $0.record != nil }
    }

    /// Imports every version of the bag at `bag` into a new bundle at `output`, refusing an
    /// existing `output` unless `replace`. Nothing is written unless the bag checks out, every
    /// record is whole and every version's files are the tree its record names; with
    /// `dryRun`, nothing is written at all. The result's `objectID` is the project's id, as
    /// an OCFL object of it is named.
    public static func importHistory(from bag: URL, to output: URL, replace: Bool = false, dryRun: Bool = false) throws
        -> OCFLImporter.Result
    {
        try AtomicReplacement.refuseExisting(output, replace: replace)
        try BagReader.validate(bag)
        let (contents, pruned) = try DocumentKitError.located(at: bag.relativePath) {
            let archived = try versionEntries(bag).map { entry -> ExportedHistory.Version in
                guard let files = entry.files, let recordPath = entry.record else {
                    throw DocumentKitError(
                        .malformedInput,
                        "documentkit/versions.json: version \(entry.number) lists no files or no record")
                }
                let record = try OCFLVersionRecord.decode(try BagReader.tagData(bag, recordPath), in: recordPath)
                guard record.version.id == entry.id else {
                    throw DocumentKitError(
                        .malformedInput,
                        """
                        is the record of \(record.version.shortID), documentkit/versions.json says \
                        \(String(entry.id.prefix(12)))
                        """,
                        location: recordPath)
                }
                for payloadPath in files.values
                where !payloadPath.hasPrefix("data/") || (try? ArchiveEntryName.validate(payloadPath)) == nil {
                    throw DocumentKitError(
                        .malformedInput,
                        """
                        documentkit/versions.json: version \(entry.number) names '\(payloadPath)', which is not a \
                        path under data/
                        """
                    )
                }
                return ExportedHistory.Version(
                    record: record, location: entry.path,
                    files: files.sorted { $0.key < $1.key }.map { (path: $0.key, key: $0.value) })
            }
            // Every payload file was checked against the manifests, links refused.
            return try ExportedHistory.contents(archived, reported: bag.relativePath) { payloadPath, _, _ in
                try FileWrapper(regularFileWithContentsOf: bag.appendingPathComponent(payloadPath))
            }
        }
        let manifest = contents.manifest
        let result = OCFLImporter.Result(
            objectID: OCFLDeposit.objectID(of: manifest), versions: manifest.versions.count, head: manifest.head,
            pruned: pruned)
        if !dryRun { try BundleWriter.writeContents(contents, to: output, replace: replace) }
        return result
    }

    /// `documentkit/versions.json`, oldest version first.
    private static func versionEntries(_ bag: URL) throws -> [BagWriter.VersionRecord] {
        let data = try BagReader.tagData(bag, "documentkit/versions.json")
        do {
            return try JSONDecoder().decode([BagWriter.VersionRecord].self, from: data)
        } catch {
            throw DocumentKitError(
                .malformedInput, "is not a list of DocumentKit versions",
                path: bag.appendingPathComponent("documentkit/versions.json").relativePath)
        }
    }
}
