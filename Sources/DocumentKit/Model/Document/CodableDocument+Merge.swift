import Foundation

extension CodableDocument {
    /// Merges `ours` and `theirs`, two edits of `base`, as `JSONMerge` merges their JSON
    /// (one-sided changes taken, objects member by member, records by id, blobs united),
    /// then decodes the result and checks every rule of the type, its records' and its
    /// relationships'. A broken rule is a conflict too, at the rule's path (one side
    /// removed a task the other made another task wait for). Nothing is saved: a pull saves
    /// the merge as a version with two parents.
    ///
    /// Blobs the merged document refers to are read from the blob references of the three
    /// documents, wherever they were loaded from.
    public static func merge(_ ours: Self, _ theirs: Self, base: Self, now: Date = DocumentDates.now()) throws
        -> DocumentMerge<Self>
    {
        let blobs = BlobCollector()
        func json(_ document: Self) throws -> JSONValue {
            try JSONValue.parse(
                CanonicalJSONEncoder(pretty: false, userInfo: [.documentKitBlobCollector: blobs]).encode(document))
        }
        let (baseJSON, ourJSON, theirJSON) = (try json(base), try json(ours), try json(theirs))
        let result = JSONMerge.merge(base: baseJSON, ours: ourJSON, theirs: theirJSON)
        guard result.conflicts.isEmpty, let mergedJSON = result.merged else {
            return DocumentMerge(merged: nil, conflicts: result.conflicts)
        }
        let source = CollectedBlobs(blobs.blobs.map(\.reference))
        let merged = try decodeSchema(
            mergedJSON.encoded(pretty: false),
            context: DocumentDecodingContext(now: now, seed: "merge", objectSource: source))
        do {
            try merged.validate()
        } catch let error as DocumentKitError where !error.brokenRules.isEmpty {
            // The rule's path is in the merged document, where neither side's value is.
            return DocumentMerge(
                merged: nil,
                conflicts: error.brokenRules.map {
                    JSONMerge.Conflict(path: $0.path, base: nil, ours: nil, theirs: nil, rule: $0.message)
                })
        }
        return DocumentMerge(merged: merged, conflicts: [])
    }
}

/// The blobs of documents already in memory, by digest: where a merged document's blob
/// references read their bytes.
private final class CollectedBlobs: ObjectSource {
    private var files: [ObjectDigest: FileWrapper] = [:]

    init(_ references: [BlobReference]) {
        for reference in references {
            if let file = reference.file { files[reference.digest] = file }
        }
    }

    func objectData(_ digest: ObjectDigest) throws -> Data {
        try file(digest).regularFileContents()
    }

    func streamObject(_ digest: ObjectDigest, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try file(digest).streamContents(body)
    }

    private func file(_ digest: ObjectDigest) throws -> FileWrapper {
        guard let file = files[digest] else {
            throw DocumentKitError(.notFound, "blob \(digest.short)… is in none of the merged documents")
        }
        return file
    }
}
