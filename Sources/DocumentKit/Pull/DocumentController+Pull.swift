import Foundation

extension DocumentController where Document: CodableDocument {
    /// Pulls the copy at `other` into this controller's bundle (see `BundlePuller`): its
    /// versions are added, and the head moves forward to it or to a merge of both, saved
    /// by `author`. Returns what happened; when `conflicts` is not empty nothing was
    /// written and `document` is as it was. Otherwise `document` is the new head, read
    /// again: save or revert unsaved changes first, since they are replaced. Fails with a
    /// `conflict` error when another writer saved since this controller last read the bundle.
    @discardableResult
    public func pull(
        from other: URL, author: String, message: String = "", created: Date = DocumentDates.now(),
        resolution: BundlePuller.Resolution = BundlePuller.Resolution(),
        compression: ObjectCompression = .zstd
    ) throws -> BundlePuller.Outcome {
        guard let bundle else {
            throw DocumentKitError(.usage, "save the new document once before pulling into it", path: url.relativePath)
        }
        let outcome = try BundlePuller.pull(
            into: url, from: other,
            metadata: SaveMetadata(author: author, message: message, created: created, compression: compression),
            resolution: resolution, expectedHead: bundle.headVersion.id, as: Document.self)
        if outcome.conflicts.isEmpty, outcome.kind != .upToDate { try revert() }
        return outcome
    }
}
