import Foundation

/// Brings another copy of a bundle's versions into it (FORMAT.md §5.3): `docctl pull`.
///
/// What the other copy brings in is checked first (``PullIncomingCheck``: every new
/// version's id against its record and its signature, every new object against its
/// digest), since it is about to become this copy's history; the rest of the other copy,
/// which this copy already holds, is not read. Then, under this bundle's writer lock:
/// - **up to date** when this copy already holds the other's head;
/// - **fast-forward** when this copy's head is an ancestor of the other's: the other's
///   versions and objects are added, records and ids as they are, and its head becomes
///   the head;
/// - otherwise a **merge**: the other's versions and objects are added, and one more
///   version is saved whose parents are the two heads and whose document is the three-way
///   merge of theirs against their newest common ancestor (`JSONMerge`), each migrated to
///   the schema edits write, then checked as every edit is: the schema, every rule, every
///   relationship. Conflicts, of values or of rules, write nothing and are returned.
///
/// Two copies that share no version are refused, as are a bundle and a copy of another
/// document type.
public enum BundlePuller {
    /// What a pull did, or would have done.
    public enum Kind: String, Codable, Sendable {
        case upToDate = "up-to-date"
        case fastForward = "fast-forward"
        case merged
    }

    /// How to settle a merge's conflicts: one side for all, a side per path, or a whole
    /// document written by the user (`docctl pull --edit`).
    public struct Resolution: Sendable {
        /// The side every conflict not named in `paths` takes.
        public var all: JSONMerge.Side?
        /// The side the conflicts at each path take, by path as users write them: as
        /// conflicts name them (`tasks[id=6F9…].title`), or with an index in this bundle's
        /// document, another field, or `[*]` (`tasks[0].title`, `tasks[title=Dig].done`,
        /// `tasks[*].title`), or a value holding conflicts (`tasks[0]`). A merge in
        /// which a path names no conflict, or two paths choose differently for one, is
        /// refused with a `usage` error (see `ResolutionPaths`).
        public var paths: [String: JSONMerge.Side]
        /// A document that replaces the merge's result, as JSON text.
        public var document: Data?

        public init(all: JSONMerge.Side? = nil, paths: [String: JSONMerge.Side] = [:], document: Data? = nil) {
            self.all = all
            self.paths = paths
            self.document = document
        }
    }

    /// What a pull did.
    public struct Outcome: Sendable {
        public var kind: Kind
        /// The versions brought in, in their order.
        public var added: [BundleVersion]
        /// The merge version saved (`merged`), else `nil`.
        public var merge: BundleVersion?
        /// The common ancestor a merge was made against.
        public var base: BundleVersion?
        /// The bundle's head after the pull (before it, when there are conflicts).
        public var head: BundleVersion
        /// The merge's conflicts; when there are any, nothing was written.
        public var conflicts: [JSONMerge.Conflict]
        /// The merged document with ours' value at every conflict, pretty-printed: what
        /// `--edit` opens. `nil` unless there are conflicts.
        public var mergedText: Data?
        /// How many versions this copy holds that the other lacks (its head reaches them
        /// through versions the other neither holds nor pruned): what a pull the other way,
        /// or a push to a remote, would send. Counted when the pull is up to date.
        public var ahead = 0
    }

    /// Pulls the copy at `other` into the bundle at `url`. `metadata` is the merge
    /// version's; a merge without a message gets one naming the other copy, as
    /// `otherName` (the user's name for it: a remote's address) or else by its file name. When
    /// `expectedHead` is given and the bundle's head moved since, nothing is written and
    /// `conflict` is thrown.
    ///
    /// The merge checks the document as `type` (by default the type registered for the
    /// bundle's content type; schema-less JSON when there is none).
    ///
    /// With `requiringSignaturesFrom`, every version brought in must be signed by a key it
    /// lists (FORMAT.md §5.4); one that is not is refused and nothing is written.
    public static func pull(
        into url: URL, from other: URL, metadata: SaveMetadata, resolution: Resolution = Resolution(),
        expectedHead: VersionID? = nil, as type: (any CodableDocument.Type)? = nil,
        requiringSignaturesFrom trusted: TrustedSigners? = nil, otherName: String? = nil
    ) throws -> Outcome {
        let theirs = try DocumentBundle(contentsOf: other)
        return try DocumentKitError.located(at: url.relativePath) {
            try BundleSaver.locked(at: url, expectedHead: expectedHead, done: "pulled") { saver in
                let ours = saver.bundle
                guard ours.contentTypeIdentifier == theirs.contentTypeIdentifier else {
                    throw DocumentKitError(
                        .invalidDocument,
                        """
                        holds \(ours.contentTypeIdentifier), \(other.relativePath) holds \
                        \(theirs.contentTypeIdentifier); nothing was pulled
                        """,
                        path: url.relativePath)
                }
                let plan = try PullPlan(ours: ours, theirs: theirs, otherName: otherName)
                var outcome = Outcome(
                    kind: .upToDate, added: [], merge: nil, base: nil, head: ours.headVersion, conflicts: [],
                    mergedText: nil)
                guard plan.kind != .upToDate else {
                    outcome.ahead = plan.ahead
                    return outcome
                }
                if let trusted { try requireSignatures(on: plan.missing, of: theirs, by: trusted) }
                let objects = try DocumentKitError.located(at: other.relativePath) {
                    try plan.objectsToCopy(from: theirs, into: ours)
                }
                let theirHead = try PullIncomingCheck.check(plan.missing, objects: objects, of: theirs, into: ours)
                var incoming = BundleWriter.Incoming(
                    source: theirs, versions: plan.missing, objects: objects, pruned: plan.prunedParents)
                incoming.headDocument = theirHead
                outcome.added = plan.missing
                if plan.kind == .fastForward {
                    if !metadata.dryRun {
                        try saver.fastForward(with: incoming, compression: metadata.compression)
                    }
                    outcome.kind = .fastForward
                    // Numbered as this bundle now numbers it: a number is a place in one
                    // copy, and the other copy may have pruned another part of the history.
                    outcome.head = try headNumbered(theirs.headVersion, afterAdding: incoming, to: ours)
                    return outcome
                }
                let base = plan.base!
                outcome.base = base.version
                var metadata = metadata
                if metadata.message.isEmpty {
                    metadata.message = "Merge \(otherName ?? other.lastPathComponent) at \(theirs.headVersion.shortID)"
                }
                let merge = DocumentPullMerge(
                    ours: ours, theirs: theirs, base: base, metadata: metadata, url: url,
                    type: type ?? DocumentKitConfiguration.current.documentType(for: ours.contentTypeIdentifier))
                switch try merge.merged(resolution: resolution) {
                case .conflicts(let conflicts, let text):
                    outcome.conflicts = conflicts
                    outcome.mergedText = text
                    outcome.added = []
                case .save(let content):
                    let version = try saver.save(content, metadata: metadata, incoming: incoming)!
                    outcome.kind = .merged
                    outcome.merge = version
                    outcome.head = version
                }
                return outcome
            }
        }
    }

    /// The other copy's head as this copy numbers it once `incoming` is added: a place
    /// after this copy's last, when the versions are appended (FORMAT.md §12.4); else as the
    /// manifest that results lists it.
    private static func headNumbered(
        _ head: BundleVersion, afterAdding incoming: BundleWriter.Incoming, to ours: DocumentBundle
    ) throws -> BundleVersion {
        if ours.formatVersion >= HistoryManifest.formatVersion, incoming.pruned.isEmpty,
            let index = incoming.versions.firstIndex(where: { $0.id == head.id })
        {
            var numbered = head
            numbered.number = ours.places.upperBound + index + 1
            return numbered
        }
        let history = try incoming.added(
            to: (try ours.manifest.versions, try ours.manifest.pruned, try ours.manifest.objects))
        return history.0.last { $0.id == head.id } ?? head
    }

    /// Refuses the first of `versions` not signed by a key `trusted` lists.
    private static func requireSignatures(
        on versions: [BundleVersion], of theirs: DocumentBundle, by trusted: TrustedSigners
    ) throws {
        for version in versions {
            let (status, _, key) = BundleVerifier.status(of: version, trusted: trusted)
            let why: String
            switch status {
            case .signed: continue
            case .unsigned: why = "is not signed"
            case .untrusted: why = "is signed by \(key!.fingerprint), a key the trusted signers do not list"
            case .invalid: why = "has a signature that does not hold (it was altered)"
            }
            throw DocumentKitError(
                .invalidDocument, "version \(version.number) (\(version.shortID)) \(why); nothing was pulled",
                path: theirs.url.relativePath, remedy: .onlySignedVersions)
        }
    }
}
