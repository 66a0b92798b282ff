import Foundation

extension BundleLookup {
    /// The files of the version named `version` (default: the head) of the bundle at `url`,
    /// sorted by path: the document and its blobs under their exported names, with their
    /// sizes, digests and media types. With `path`, only that file, or the files below that
    /// folder (`blobs`, `blobs/`); it may name a blob by its exported or its tree path. A
    /// `path` that names nothing is `notFound`.
    ///
    /// The names and media types come from the version's document, which is checked
    /// against its digest first; a document too large to parse, or not JSON, records none,
    /// as in exports.
    public static func files(of url: URL, version: String? = nil, under path: String? = nil) throws -> [VersionFile] {
        let bundle = try DocumentBundle(contentsOf: url)
        let selected = try version.map(bundle.version(named:)) ?? bundle.headVersion
        return try DocumentKitError.located(at: url.relativePath) {
            let tree = try bundle.tree(of: selected)
            let stored = ExportedFile.list(tree).filter { $0.node != nil }
            var references: [String: (names: [String], mediaType: String?)] = [:]
            // What the document records is read only for the blobs it names.
            if !ExportedBlobNames.blobDigests(in: stored).isEmpty,
                let size = tree[VersionLayout.documentName]?.fileSize, size <= bundle.limits.maxDocumentBytes,
                let json = try? JSONValue.parse(try bundle.documentDataForParsing(of: selected))
            {
                references = recordedReferences(in: json)
            }
            let exported = ExportedBlobNames.apply(to: stored) { references.mapValues(\.names) }
            let treePaths = Dictionary(uniqueKeysWithValues: stored.map { (ObjectIdentifier($0.node!), $0.path) })
            var files = exported.map { file in
                versionFile(
                    at: file.path, treePath: treePaths[ObjectIdentifier(file.node!)]!, node: file.node!,
                    references: references)
            }
            if let path {
                let wanted = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
                let prefix = wanted.hasSuffix("/") ? wanted : wanted + "/"
                let bare = String(prefix.dropLast())
                if !bare.isEmpty, bare != "." {
                    files = files.filter { [$0.path, $0.treePath].contains { $0 == bare || $0.hasPrefix(prefix) } }
                    if files.isEmpty {
                        throw DocumentKitError(.notFound, "version \(selected.number) has no file or folder '\(bare)'")
                    }
                }
            }
            return files
        }
    }

    private static func versionFile(
        at path: String, treePath: String, node: FileWrapper,
        references: [String: (names: [String], mediaType: String?)]
    ) -> VersionFile {
        let folder = VersionLayout.blobsFolder + "/"
        let digest = node.knownDigest?.hex ?? ""
        let kind: VersionFile.Kind
        let mediaType: String
        if treePath == VersionLayout.documentName {
            (kind, mediaType) = (.document, "application/json")
        } else if treePath.hasPrefix(folder), treePath.dropFirst(folder.count) == digest {
            (kind, mediaType) = (.blob, references[digest]?.mediaType ?? "application/octet-stream")
        } else {
            (kind, mediaType) = (.file, MediaTypes.guess(for: URL(fileURLWithPath: treePath)))
        }
        return VersionFile(
            path: path, treePath: treePath, kind: kind, size: node.fileSize ?? 0, digest: digest, mediaType: mediaType)
    }

    /// The valid names and the first media type the document's references record for each
    /// blob, by digest, in document order (members by sorted name), as exports take names.
    private static func recordedReferences(in json: JSONValue) -> [String: (names: [String], mediaType: String?)] {
        var found: [String: (names: [String], mediaType: String?)] = [:]
        for reference in json.blobReferences() {
            guard case .object(let members)? = try? json.value(at: reference.path) else { continue }
            var entry = found[reference.digest] ?? ([], nil)
            if case .string(let name)? = members["name"], BlobReference.isValidName(name), !entry.names.contains(name) {
                entry.names.append(name)
            }
            if entry.mediaType == nil, case .string(let type)? = members["mediaType"] { entry.mediaType = type }
            found[reference.digest] = entry
        }
        return found
    }
}
