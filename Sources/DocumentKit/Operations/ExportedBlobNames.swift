import Foundation

/// The names blobs take in exports (FORMAT.md §7, "Exports"): `blobs/<name>`, the name
/// the document records for the blob, so that a person finds `photo.png`, not a digest.
///
/// The rule, for the files of one `blobs/` folder:
/// 1. a blob's candidate is the first valid `name` its references record, in document
///    order (members by sorted name), or its digest (64 hex digits) when none does;
/// 2. candidates that are equal by the collision key of FORMAT.md §1 (NFC, then lower-cased)
///    for two or more different blobs are each replaced: a named blob by
///    `<first 12 hex digits of its digest>-<name>` (while that is at most 255 bytes), an
///    unnamed one by its digest;
/// 3. any name still equal to another (by the key), or to a file of the folder that is
///    not a blob, becomes the blob's digest, until none is.
///
/// The tree keeps `blobs/<digest>`; only the exported path changes. Exported documents
/// still refer to blobs by digest: a reader finds a blob by hashing the files of
/// `blobs/`, or by this rule.
package enum ExportedBlobNames {
    /// `files` (an exported tree's listing) with each blob file at `blobs/<digest>`
    /// renamed by the rule, given the version's `document` text (`nil`, or text that is
    /// not JSON, records no names). Sorted by path again, folders before their contents.
    /// A recorded name holding a character of `excluded` counts as none (a bag's names
    /// avoid `%`, which BagIt tools disagree on).
    /// The document is read only when the tree has blobs: a version without any exports
    /// its files as they are, without parsing a document of any size.
    package static func apply(to files: [ExportedFile], document: () -> Data?, excluding excluded: Set<Character> = []) -> [ExportedFile] {
        apply(to: files) { (document().map(recordedNames(in:)) ?? [:]).filter { !$0.value.contains(where: excluded.contains) } }
    }

    /// `files` with each blob file at `blobs/<digest>` renamed by the rule, given the first
    /// valid name the document records for each blob (`recorded`, by digest), asked for
    /// only when there are blobs to name.
    package static func apply(to files: [ExportedFile], recorded: () -> [String: String]) -> [ExportedFile] {
        let folder = VersionLayout.blobsFolder + "/"
        let inFolder = files.filter { $0.path.hasPrefix(folder) && !$0.path.dropFirst(folder.count).contains("/") }
        let blobs = blobDigests(in: inFolder)
        guard !blobs.isEmpty else { return files }
        let others = Set(inFolder.map { String($0.path.dropFirst(folder.count)) }).subtracting(blobs)
        let names = exportedNames(blobs: blobs, recorded: recorded(), others: others)
        return files.map { file in
            guard file.path.hasPrefix(folder), let name = names[String(file.path.dropFirst(folder.count))] else { return file }
            return ExportedFile(path: folder + name, node: file.node)
        }.sorted { $0.path < $1.path }
    }

    /// The digests of the blobs among `files`: the files `blobs/<digest>` holds, which are
    /// what a document's references name (and so what the rule renames).
    package static func blobDigests(in files: [ExportedFile]) -> [String] {
        let folder = VersionLayout.blobsFolder + "/"
        return files.compactMap { file in
            let name = file.path.dropFirst(folder.count)
            guard file.node != nil, file.path.hasPrefix(folder), !name.contains("/"), ObjectDigest(hex: String(name)) != nil else { return nil }
            return String(name)
        }
    }

    /// Each blob's exported file name, by digest.
    package static func exportedNames(blobs: [String], recorded: [String: String], others: Set<String> = []) -> [String: String] {
        var names: [String: String] = [:]
        for digest in blobs { names[digest] = recorded[digest] ?? digest }
        // Step 2: clashes between different blobs.
        for (_, clashing) in Dictionary(grouping: blobs, by: { ArchiveEntryName.collisionKey(names[$0]!) }) where clashing.count > 1 {
            for digest in clashing {
                let prefixed = recorded[digest].map { "\(digest.prefix(12))-\($0)" }
                names[digest] = prefixed.flatMap { $0.utf8.count <= TreeObject.maxNameBytes ? $0 : nil } ?? digest
            }
        }
        // Step 3: whatever still clashes, with a blob or another file, takes its digest.
        // Digests never clash with each other, so each round moves a blob for good.
        let reserved = Set(others.map(ArchiveEntryName.collisionKey))
        while true {
            var seen: [String: [String]] = [:]
            for digest in blobs.sorted() { seen[ArchiveEntryName.collisionKey(names[digest]!), default: []].append(digest) }
            let moved = seen.filter { $0.value.count > 1 || reserved.contains($0.key) }.values.joined()
                .filter { names[$0] != $0 }
            if moved.isEmpty { break }
            for digest in moved { names[digest] = digest }
        }
        return names
    }

    /// The first valid name recorded for each digest in `document`, in document order.
    package static func recordedNames(in document: Data) -> [String: String] {
        // Exports copy documents up to 1 GiB; only those that may be parsed are read for names.
        guard UInt64(document.count) <= BundleLimits.default.maxDocumentBytes,
              document.range(of: Data(#""name""#.utf8)) != nil,
              let value = try? JSONValue.parse(document) else { return [:] }
        var names: [String: String] = [:]
        collect(value, into: &names)
        return names
    }

    private static func collect(_ value: JSONValue, into names: inout [String: String]) {
        switch value {
        case .object(let members):
            if case .string(let digest)? = members["$blob"] {
                if case .string(let name)? = members["name"], BlobReference.isValidName(name), names[digest] == nil {
                    names[digest] = name
                }
                return
            }
            for key in members.keys.sorted() where isContainer(members[key]!) { collect(members[key]!, into: &names) }
        case .array(let elements):
            for element in elements where isContainer(element) { collect(element, into: &names) }
        default:
            break
        }
    }

    private static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: true
        default: false
        }
    }
}
