import Foundation

/// The names blobs take in exports (FORMAT.md §7, "Exports"): `blobs/<name>`, the name
/// the document records for the blob, so that a person finds `photo.png`, not a digest.
///
/// The rule, for the files of one `blobs/` folder:
/// 1. a blob's candidates are the valid `name`s its references record, each once (by the
///    collision key of FORMAT.md §1, NFC then lower-cased), in document order (members by
///    sorted name), or its digest (64 hex digits) when none does: the same bytes attached
///    as `thumbnail.png` and as `cover.png` export as both files;
/// 2. candidates that are equal by the key for two or more different blobs are each
///    replaced: a recorded name by `<first 12 hex digits of its digest>-<name>` (while that
///    is at most 255 bytes), else by the blob's digest;
/// 3. any name still equal to another blob's (by the key), or to a file of the folder that
///    is not a blob, becomes the blob's digest, until none is.
///
/// The tree keeps `blobs/<digest>` once; only the exported paths change. Exported documents
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
    package static func apply(to files: [ExportedFile], document: () -> Data?, excluding excluded: Set<Character> = [])
        -> [ExportedFile]
    {
        apply(to: files) {
            (document().map(recordedNames(in:)) ?? [:]).mapValues {
                $0.filter { !$0.contains(where: excluded.contains) }
            }
        }
    }

    /// `files` with each blob file at `blobs/<digest>` renamed by the rule (one file for each
    /// of its names), given the valid names the document records for each blob
    /// (`recorded`, by digest, in document order), asked for only when there are blobs to name.
    package static func apply(to files: [ExportedFile], recorded: () -> [String: [String]]) -> [ExportedFile] {
        let folder = VersionLayout.blobsFolder + "/"
        let inFolder = files.filter { $0.path.hasPrefix(folder) && !$0.path.dropFirst(folder.count).contains("/") }
        let blobs = blobDigests(in: inFolder)
        guard !blobs.isEmpty else { return files }
        let others = Set(inFolder.map { String($0.path.dropFirst(folder.count)) }).subtracting(blobs)
        let names = exportedNames(blobs: blobs, recorded: recorded(), others: others)
        return files.flatMap { file in
            guard file.path.hasPrefix(folder), let exported = names[String(file.path.dropFirst(folder.count))] else {
                return [file]
            }
            return exported.map { ExportedFile(path: folder + $0, node: file.node) }
        }.sorted { $0.path < $1.path }
    }

    /// The digests of the blobs among `files`: the files `blobs/<digest>` holds, which are
    /// what a document's references name (and so what the rule renames).
    package static func blobDigests(in files: [ExportedFile]) -> [String] {
        let folder = VersionLayout.blobsFolder + "/"
        return files.compactMap { file in
            let name = file.path.dropFirst(folder.count)
            guard file.node != nil, file.path.hasPrefix(folder), !name.contains("/"),
                ObjectDigest(hex: String(name)) != nil
            else { return nil }
            return String(name)
        }
    }

    /// Each blob's exported file names, by digest (at least one each).
    package static func exportedNames(blobs: [String], recorded: [String: [String]], others: Set<String> = [])
        -> [String: [String]]
    {
        let key = ArchiveEntryName.collisionKey
        var names: [String: [String]] = [:]
        for digest in blobs {
            var keys = Set<String>()
            let own = (recorded[digest] ?? []).filter { keys.insert(key($0)).inserted }
            names[digest] = own.isEmpty ? [digest] : own
        }
        // Step 2: clashes between different blobs.
        var owners: [String: Set<String>] = [:]
        for digest in blobs { for name in names[digest]! { owners[key(name), default: []].insert(digest) } }
        for digest in blobs {
            names[digest] = unique(
                names[digest]!.map { name in
                    guard owners[key(name)]!.count > 1 else { return name }
                    let prefixed = (recorded[digest] ?? []).contains(name) ? "\(digest.prefix(12))-\(name)" : digest
                    return prefixed.utf8.count <= TreeObject.maxNameBytes ? prefixed : digest
                }, by: key)
        }
        // Step 3: whatever still clashes, with another blob or another file, takes its digest.
        // Digests never clash with each other, so each round moves a name for good.
        let reserved = Set(others.map(key))
        while true {
            var seen: [String: Set<String>] = [:]
            for digest in blobs { for name in names[digest]! { seen[key(name), default: []].insert(digest) } }
            let clashing = Set(seen.filter { $0.value.count > 1 || reserved.contains($0.key) }.keys)
            var moved = false
            for digest in blobs.sorted()
            where names[digest]!.contains(where: { $0 != digest && clashing.contains(key($0)) }) {
                names[digest] = unique(names[digest]!.map { clashing.contains(key($0)) ? digest : $0 }, by: key)
                moved = true
            }
            if !moved { break }
        }
        return names
    }

    /// `names` without any equal by `key` to an earlier one.
    private static func unique(_ names: [String], by key: (String) -> String) -> [String] {
        var keys = Set<String>()
        return names.filter { keys.insert(key($0)).inserted }
    }

    /// Every valid name recorded for each digest in `document`, in document order, each once.
    package static func recordedNames(in document: Data) -> [String: [String]] {
        // Exports copy documents up to 1 GiB; only those that may be parsed are read for names.
        guard UInt64(document.count) <= BundleLimits.default.maxDocumentBytes,
            document.range(of: Data(#""name""#.utf8)) != nil,
            let value = try? JSONValue.parse(document)
        else { return [:] }
        var names: [String: [String]] = [:]
        collect(value, into: &names)
        return names
    }

    private static func collect(_ value: JSONValue, into names: inout [String: [String]]) {
        switch value {
        case .object(let members):
            if case .string(let digest)? = members["$blob"] {
                if case .string(let name)? = members["name"], BlobReference.isValidName(name),
                    !(names[digest] ?? []).contains(name)
                {
                    names[digest, default: []].append(name)
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
