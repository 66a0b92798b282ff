import DocumentKitBundle
import Foundation

extension ValidationPass {
    /// Checks a version's recorded `changes` (`--deep`): they must be what its tree and its
    /// first parent's give, computed as a save computes them (FORMAT.md §5). The id and a
    /// signature do not cover `changes`; they cover the trees it is derived from, so a
    /// summary that disagrees with them was altered, and `log` would show a lie that a
    /// signature seems to vouch for.
    ///
    /// A first version records none. A version whose first parent was pruned cannot be
    /// checked (the parent's document is gone), nor can one saved before changes were
    /// recorded, which has none.
    /// `parentTree` and `parentDocument` are the first parent's, `nil` when it cannot be
    /// read; a document that is not JSON is `nil` too, and reported as such elsewhere.
    mutating func checkRecordedChanges(
        of version: BundleVersion, tree: FileWrapper, document: CheckedJSONText?,
        parentTree: FileWrapper?, parentDocument: CheckedJSONText?
    ) {
        guard let recorded = version.changes else { return }
        guard version.parents.first != nil else {
            return report(
                "version.changes-mismatch", "records changes, but a first version has no parent to change from",
                version: version.number)
        }
        guard let parentTree, let parentDocument, let document else { return }
        var listed = JSONChangeList(limit: VersionChanges.limit)
        do {
            try JSONValue.collectChanges(from: parentDocument, to: document, into: &listed)
        } catch {
            return
        }
        let expected = VersionChanges(changes: listed, blobs: BlobChange.changes(from: parentTree, to: tree))
        if expected != recorded {
            report(
                "version.changes-mismatch",
                """
                its recorded changes are not what its tree and its first parent's give (\(Self.summary(recorded)) \
                recorded, \(Self.summary(expected)) found): the record was altered
                """,
                version: version.number)
        }
    }

    private static func summary(_ changes: VersionChanges) -> String {
        "\(changes.paths.count) paths, \(changes.blobs.count) blobs, \(changes.omitted) more"
    }
}

/// The documents a deep validation read last, by digest, for the few old documents the
/// delta walk did not pair with their parents' (`ValidationPass.finishOldDocuments`): a
/// version's document and its parent's are often each other's delta base.
struct RecentDocuments {
    let bundle: DocumentBundle
    private var kept: [(digest: ObjectDigest, data: Data)] = []
    /// Enough for a version, its parent and a merge's other side.
    private static let capacity = 3

    init(bundle: DocumentBundle) { self.bundle = bundle }

    mutating func keep(_ data: Data, as digest: ObjectDigest) {
        kept.removeAll { $0.digest == digest }
        kept.append((digest, data))
        if kept.count > Self.capacity { kept.removeFirst() }
    }

    /// The document `digest`, checked against it: from those kept, from its delta base
    /// when that is kept, else read whole.
    mutating func document(_ digest: ObjectDigest) throws -> Data {
        if let found = kept.first(where: { $0.digest == digest }) { return found.data }
        let data: Data
        if let record = try bundle.manifest.objects[digest], record.codec == .delta,
            let base = kept.first(where: { $0.digest == record.base })
        {
            data = try bundle.validateObject(digest, base: base.data)
        } else {
            data = try bundle.objectData(digest)
        }
        keep(data, as: digest)
        return data
    }
}
