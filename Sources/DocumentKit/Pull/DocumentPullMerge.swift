import Foundation

/// The merge version of a pull: the three-way merge of two copies' head documents against
/// their common ancestor's, each first migrated to the schema edits write, then saved as
/// an edit is saved (schema, rules, relationships checked), with blobs of both copies.
struct DocumentPullMerge {
    /// A save ready to write, or the conflicts that stop it.
    enum Result {
        /// The conflicts, and the merged document with ours' value at each, pretty-printed.
        case conflicts([JSONMerge.Conflict], Data)
        case save(SaveContent)
    }

    let ours: DocumentBundle
    let theirs: DocumentBundle
    let base: (version: BundleVersion, bundle: DocumentBundle)
    let metadata: SaveMetadata
    let url: URL
    /// The document's type; `nil` merges schema-less JSON.
    let type: (any CodableDocument.Type)?

    /// Merges, resolving conflicts as `resolution` says: what the merge version holds, or the conflicts.
    func merged(resolution: BundlePuller.Resolution) throws -> Result {
        let merged: JSONValue
        if let edited = resolution.document {
            merged = try DocumentKitError.located(at: "the merged document") { try JSONValue.parse(edited) }
        } else {
            let documents = try self.documents(as: type)
            let paths = try ResolutionPaths(
                resolution, ours: documents.ours, theirs: documents.theirs, base: documents.base)
            let result = JSONMerge.merge(
                base: documents.base, ours: documents.ours, theirs: documents.theirs, choosing: paths.side(at:))
            try paths.checkEveryPathWasUsed()
            merged = result.merged ?? .object([:])
            if !result.conflicts.isEmpty { return .conflicts(result.conflicts, Self.text(merged)) }
        }
        // Blobs only the other copy has are read from it (and copied as they are stored).
        let pending = PendingObjects(base: ours)
        for reference in merged.blobReferences() {
            guard let digest = ObjectDigest(hex: reference.digest), try !ours.hasObject(digest),
                let record = try theirs.objectRecord(digest)
            else { continue }
            pending.add(FileWrapper(object: digest, size: record.size, store: theirs), digest: digest)
        }
        do {
            return .save(try content(merged, as: type, pending: pending))
        } catch let error as DocumentKitError where !error.brokenRules.isEmpty && resolution.document == nil {
            // Each side's values allow the merge, its result breaks a rule: a conflict too.
            return .conflicts(
                error.brokenRules.map {
                    JSONMerge.Conflict(path: $0.path, base: nil, ours: nil, theirs: nil, rule: $0.message)
                }, Self.text(merged))
        }
    }

    /// The three documents, in the schema the merge is written with: the type's own (or
    /// the write schema), or, for a type this build does not know, the schema they share.
    private func documents(as type: (any CodableDocument.Type)?) throws -> (
        base: JSONValue, ours: JSONValue, theirs: JSONValue
    ) {
        let sides = [(base.version, base.bundle), (ours.headVersion, ours), (theirs.headVersion, theirs)]
        guard let type else {
            let schemas = Set(sides.map(\.0.schema))
            guard schemas.count == 1 else {
                throw DocumentKitError(
                    .unsupportedFormat,
                    """
                    holds \(ours.contentTypeIdentifier), a type this build does not know, in schemas \
                    \(schemas.sorted().joined(separator: ", ")): only a build that can migrate them can merge them
                    """,
                    path: url.relativePath)
            }
            let texts = try sides.map { try JSONValue.parse($0.1.documentDataForParsing(of: $0.0)) }
            return (texts[0], texts[1], texts[2])
        }
        let target = try DocumentKitConfiguration.current.writtenSchema(of: type, over: ours.headVersion)
        let texts = try sides.map { version, bundle in
            let context = DocumentDecodingContext(
                now: metadata.created, seed: "\(version.id)/migrate", objectSource: bundle)
            return try JSONValue.parse(
                type.migratedJSON(
                    try bundle.documentDataForParsing(of: version), schema: version.schema,
                    to: target, context: context))
        }
        return (texts[0], texts[1], texts[2])
    }

    private func content(_ merged: JSONValue, as type: (any CodableDocument.Type)?, pending: PendingObjects) throws
        -> SaveContent
    {
        guard let type else { return try SaveContent.schemaless(merged, over: ours, pending: pending) }
        let missing = pending.missingBlobs(in: merged)
        return try SaveContent.typed(
            type, text: merged.encoded(pretty: false), base: ours, pending: pending, alsoBroken: missing,
            seed: "\(ours.headVersion.id)/merge/\(theirs.headVersion.id)", created: metadata.created)
    }

    private static func text(_ value: JSONValue) -> Data {
        var text = value.encoded(pretty: true)
        text.append(0x0A)
        return text
    }
}
