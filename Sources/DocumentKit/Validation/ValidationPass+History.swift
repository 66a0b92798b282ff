import Foundation

extension ValidationPass {
    /// Checks every old version's document (`--deep`): readable, and every blob it refers
    /// to held by its version; and every version's recorded `changes` against its tree and
    /// its first parent's (``checkRecordedChanges(of:tree:document:versions:documents:)``).
    ///
    /// Versions are read newest first, each document rebuilt from one read just before it
    /// (its delta base), so a history of 1,000 versions costs 1,000 delta applications,
    /// not 500,000. Old documents are not decoded against the schema again: their bytes are
    /// proven, by their digests, to be the ones that were checked when they were saved, and
    /// decoding 1,000 documents of 5 MB would take minutes. A document that does not parse
    /// as JSON is still reported, with every path at fault.
    package mutating func checkOldDocuments() {
        var documents = RecentDocuments(bundle: bundle)
        let versions = Dictionary(manifest.versions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let data = try? bundle.headDocumentData() { documents.keep(data, as: ObjectDigest.of(data)) }
        for version in manifest.versions.reversed() {
            // The head's document and blobs are checkHeadDocument's; its changes are checked here.
            let isHead = version.id == manifest.head
            guard let tree = try? bundle.tree(of: version), let digest = tree[VersionLayout.documentName]?.knownDigest else {
                if !isHead { report("document.unreadable", "the version's document.json cannot be read", version: version.number) }
                continue
            }
            let data: Data
            do {
                data = try documents.document(digest)
            } catch {
                if !isHead {
                    report("document.unreadable", "the version's document.json cannot be read: \((error as? DocumentKitError)?.message ?? "\(error)")", version: version.number)
                }
                continue
            }
            if !isHead { checkBlobReferences(in: data, version: version, tree: tree) }
            checkRecordedChanges(of: version, tree: tree, document: data, versions: versions, documents: &documents)
        }
    }

    /// Reports blob references of `data` that `tree` does not hold; the document is
    /// scanned for `"$blob"` members rather than parsed, and parsed only to name paths.
    private mutating func checkBlobReferences(in data: Data, version: BundleVersion, tree: FileWrapper) {
        let blobs = tree[VersionLayout.blobsFolder]?.fileWrappers ?? [:]
        let objects = manifest.objects
        let held = { (hex: String) -> Bool in
            guard let digest = ObjectDigest(hex: hex) else { return false }
            return blobs[digest.hex] != nil && objects[digest] != nil
        }
        if let scanned = BlobReferenceScan.digests(in: data), scanned.allSatisfy(held) { return }
        do {
            for reference in try JSONValue.parse(data).blobReferences() where !held(reference.digest) {
                report("blob.unresolved", "refers to blob \(reference.digest.prefix(12)), which the version does not hold", version: version.number, path: reference.path.description)
            }
        } catch {
            report("document.invalid-json", (error as? DocumentKitError)?.message ?? "\(error)", version: version.number)
        }
    }
}

/// Finds the digests of blob references (`"$blob": "…"` members) in JSON text by
/// searching its bytes for the member name, reading only what follows each match with the
/// document parser, without parsing the document.
package enum BlobReferenceScan {
    /// The digests, in text order; `nil` when a match is not plainly a member name
    /// followed by a string, and the caller should parse instead.
    package static func digests(in data: Data) -> [String]? {
        let needle = Array(#""$blob""#.utf8)
        return data.withUnsafeBytes { (text: UnsafeRawBufferPointer) -> [String]? in
            guard let base = text.baseAddress else { return [] }
            var parser = JSONParser(bytes: text, depthLimit: 1)
            var found: [String] = []
            var from = 0
            while from < text.count, let quote = memchr(base + from, Int32(UInt8(ascii: "\"")), text.count - from) {
                let start = base.distance(to: UnsafeRawPointer(quote))
                guard start + needle.count <= text.count, memcmp(base + start, needle, needle.count) == 0 else {
                    from = start + 1
                    continue
                }
                // Inside a string, a quote is escaped: a backslash before it means no key.
                if start > 0, text[start - 1] == UInt8(ascii: "\\") { return nil }
                parser.index = start + needle.count
                parser.skipWhitespace()
                guard parser.current == UInt8(ascii: ":") else { return nil }
                parser.index += 1
                parser.skipWhitespace()
                guard parser.current == UInt8(ascii: "\""), let digest = try? parser.parseString(),
                      digest.utf8.count == 64 else { return nil }
                found.append(digest)
                from = parser.index
            }
            return found
        }
    }
}
