import DocumentKitArchive
import DocumentKitBundle
import DocumentKitCore
import Foundation

/// The one path every write of an existing bundle takes, and every new version: it takes
/// the bundle's writer lock, removes what killed saves left behind, opens the bundle as it
/// is under the lock, checks that its head is still the one the change was based on, and
/// writes. Crash and conflict behaviour is decided here and nowhere else: edits, restores,
/// migrations, pulls, prunes, state changes and `DocumentController` saves are its callers.
package struct BundleSaver {
    /// The bundle's file, as the caller named it.
    package let url: URL
    /// The bundle as it is under the lock.
    package let bundle: DocumentBundle

    /// Runs `body` with the bundle at `url` as it is under its writer lock. When
    /// `expectedHead` is given and the head moved since the caller read it, nothing runs
    /// and `conflict` is thrown, saying that nothing was `done` ("saved", "pulled").
    package static func locked<T>(
        at url: URL, expectedHead: VersionID? = nil, done: String = "saved",
        _ body: (BundleSaver) throws -> T
    ) throws -> T {
        let lock = try BundleLock.acquire(url)
        defer { withExtendedLifetime(lock) {} }
        AtomicReplacement.removeLeftovers(of: url)
        let resolved = AtomicReplacement.resolvingSymbolicLinks(url).path
        // Cut only where readers would read: at a journal whose cut is a complete zip.
        try AppendJournal.recover(
            bundlePath: resolved,
            isCompleteZip: { length in (try? StoredZipReader(path: resolved, length: length)) != nil },
            reclaim: { fd, stretch, length in
                try StoredZipSlot.reclaim(stretch, of: try StoredZipReader(path: resolved, length: length), in: fd)
            })
        let saver = BundleSaver(url: url, bundle: try DocumentBundle(contentsOf: url))
        try saver.checkHead(is: expectedHead, done: done)
        return try body(saver)
    }

    /// Saves what `makeContent` makes of the bundle as it is under the lock as a new
    /// version; returns it and the head before it (the version is `nil` when the content
    /// equals the head's, and nothing is written then).
    package static func save(
        at url: URL, expectedHead: VersionID? = nil, metadata: SaveMetadata,
        _ makeContent: (DocumentBundle) throws -> SaveContent
    ) throws -> (version: BundleVersion?, previous: BundleVersion) {
        try locked(at: url, expectedHead: expectedHead) { saver in
            (try saver.save(try makeContent(saver.bundle), metadata: metadata), saver.bundle.headVersion)
        }
    }

    /// Writes a new bundle at `url` whose first version holds `content`. Fails if `url`
    /// exists, unless `replace`, in which case the old file is replaced whole (nothing of
    /// it is read, so it takes no lock).
    package static func create(at url: URL, replace: Bool, _ content: SaveContent, metadata: SaveMetadata) throws
        -> BundleVersion
    {
        try BundleWriter.write(content.request(metadata: metadata, base: nil, destination: url, replace: replace))!
    }

    /// Saves `content` as a new version of the bundle, appended in place. With `incoming`,
    /// another copy's versions and objects come first and its head is the second parent (a
    /// merge). Returns `nil` when the content equals the head's and there is no merge.
    package func save(_ content: SaveContent, metadata: SaveMetadata, incoming: BundleWriter.Incoming? = nil) throws
        -> BundleVersion?
    {
        var request = content.request(metadata: metadata, base: bundle, destination: url, replace: true)
        request.inPlace = true
        request.incoming = incoming
        return try BundleWriter.write(request)
    }

    /// Adds another copy's versions and objects after the head, which becomes theirs (a
    /// fast-forward pull); no version of its own is made.
    package func fastForward(with incoming: BundleWriter.Incoming, compression: ObjectCompression) throws {
        try BundleWriter.fastForward(bundle, with: incoming, compression: compression, destination: url, inPlace: true)
    }

    /// Writes the bundle anew from `contents` (the base's objects it lists are copied as
    /// they are stored): what a prune does.
    package func rewrite(_ contents: BundleWriter.Contents) throws {
        try BundleWriter.writeContents(contents, to: url, replace: true)
    }

    /// Prunes a format-3 history through place `lastDropped`, keeping the objects
    /// `reachable` names, from its segments' items
    /// (``BundleWriter/writePruned(_:throughPlace:reachable:compression:to:)``).
    package func rewritePruned(
        throughPlace lastDropped: Int, reachable: Set<ObjectDigest>,
        compression: ObjectCompression
    ) throws -> BundleWriter.HistoryPruneOutcome {
        try BundleWriter.writePruned(
            bundle, throughPlace: lastDropped, reachable: reachable, compression: compression, to: url)
    }

    /// Writes the bundle's state (`nil` removes it), changing nothing in its history.
    package func writeState(_ state: Data?) throws {
        try BundleWriter.writeState(state, over: bundle, destination: url)
    }

    /// Throws `conflict` if the head is not `expectedHead` (when one is given).
    private func checkHead(is expectedHead: VersionID?, done: String) throws {
        guard let expectedHead, bundle.headVersion.id != expectedHead else { return }
        let opened = try bundle.manifest.versions.first { $0.id == expectedHead }
        let now = bundle.headVersion
        throw DocumentKitError(
            .conflict,
            """
            changed since it was opened: opened at version \
            \(opened.map { "\($0.number) (\($0.shortID))" } ?? String(expectedHead.prefix(12))), now at version \
            \(now.number) (\(now.shortID)); nothing was \(done)
            """,
            path: url.relativePath)
    }
}
