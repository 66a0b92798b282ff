import Foundation

extension BagWriter {
    /// Where a bag of every version keeps each version's whole record (a tag file each).
    static let historyRecordsFolder = "documentkit/records"

    /// The payload of a bag of every version (FORMAT.md §7, "BagIt"), each distinct file
    /// once, however many versions have it: every blob in `data/blobs/` under its readable
    /// names (those the newest version holding it records, by ``ExportedBlobNames``'s rule,
    /// `%` left out as in every bag), every other file (the document above all) in
    /// `data/versions/<number>-<first 12 hex digits of its id>/` of the oldest version that
    /// has those bytes. Each version's entry of `documentkit/versions.json` maps its files
    /// to the payload files holding them, and names the tag file of its whole record, from
    /// which `import` rebuilds every version with its id (``BagImporter``).
    static func historyContents(_ versions: [BundleVersion], of bundle: DocumentBundle) throws -> (
        payload: [ExportedFile], records: [VersionRecord]
    ) {
        let listings = try versions.map { ExportedFile.list(try bundle.tree(of: $0)).filter { $0.node != nil } }
        // Each blob once, named as the newest version that holds it names it: a version's
        // document is read only when it holds a blob no newer version does.
        var blobNodes: [String: FileWrapper] = [:]
        var recorded: [String: [String]] = [:]
        for listing in listings.reversed() {
            let newBlobs = ExportedBlobNames.blobDigests(in: listing).filter { blobNodes[$0] == nil }
            guard !newBlobs.isEmpty else { continue }
            let document = listing.first { $0.path == VersionLayout.documentName }?.node
            let names =
                document.flatMap {
                    ($0.fileSize ?? .max) <= BundleLimits.default.maxDocumentBytes ? try? $0.regularFileContents() : nil
                }
                .map(ExportedBlobNames.recordedNames(in:)) ?? [:]
            for digest in newBlobs {
                blobNodes[digest] = listing.first { $0.path == "\(VersionLayout.blobsFolder)/\(digest)" }!.node
                recorded[digest] = (names[digest] ?? []).filter { !$0.contains("%") }
            }
        }
        let blobFiles = blobNodes.keys.sorted().map {
            ExportedFile(path: "\(VersionLayout.blobsFolder)/\($0)", node: blobNodes[$0])
        }
        let namedBlobs = ExportedBlobNames.apply(to: blobFiles) { recorded }
        var digestOfNode: [ObjectIdentifier: String] = [:]
        for (digest, node) in blobNodes { digestOfNode[ObjectIdentifier(node)] = digest }
        var payload = namedBlobs.map { ExportedFile(path: "data/\($0.path)", node: $0.node) }
        // A blob's bytes are found at the first of its names.
        var placed: [String: String] = [:]
        for file in payload where placed["blob:" + digestOfNode[ObjectIdentifier(file.node!)]!] == nil {
            placed["blob:" + digestOfNode[ObjectIdentifier(file.node!)]!] = file.path
        }
        var records: [VersionRecord] = []
        for (version, listing) in zip(versions, listings) {
            let folder = "data/versions/\(version.number)-\(version.id.prefix(12))"
            let blobs = Set(ExportedBlobNames.blobDigests(in: listing))
            var files: [String: String] = [:]
            for file in listing {
                let name = String(file.path.dropFirst(VersionLayout.blobsFolder.count + 1))
                if file.path.hasPrefix(VersionLayout.blobsFolder + "/"), blobs.contains(name) {
                    files[file.path] = placed["blob:" + name]!
                    continue
                }
                // Other files are the same bytes when their objects are.
                let key = file.node!.knownDigest.map { "file:" + $0.hex }
                if let key, let earlier = placed[key] {
                    files[file.path] = earlier
                } else {
                    let path = "\(folder)/\(file.path)"
                    payload.append(ExportedFile(path: path, node: file.node))
                    files[file.path] = path
                    if let key { placed[key] = path }
                }
            }
            records.append(
                VersionRecord(
                    version, path: folder, files: files,
                    record: "\(historyRecordsFolder)/\(version.number)-\(version.id.prefix(12)).json"))
        }
        // Every folder a file is in, before its contents.
        var folders: Set<String> = ["data", "data/versions"]
        for file in payload {
            var parent = PathText.parent(of: file.path)
            while !parent.isEmpty, folders.insert(parent).inserted { parent = PathText.parent(of: parent) }
        }
        for version in versions { folders.insert("data/versions/\(version.number)-\(version.id.prefix(12))") }
        payload += folders.map { ExportedFile(path: $0, node: nil) }
        return (payload.sorted { $0.path < $1.path }, records)
    }
}
