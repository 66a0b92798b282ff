import Foundation

extension BundleEditor {
    /// The save of `change` applied to the head document of a bundle whose type is not
    /// registered: JSON in, JSON out, checked by the format's rules alone (FORMAT.md §7).
    /// The document must stay an object, and every blob it refers to must be in the bundle
    /// or added by the edit; the version keeps the head's content type and schema, and its
    /// tree holds exactly the blobs the document refers to.
    package static func schemalessRequest(_ bundle: DocumentBundle, context: EditContext, metadata: SaveMetadata, url: URL,
                                  _ change: (inout JSONValue, EditContext) throws -> Void) throws -> BundleWriter.Request {
        var json = try JSONValue.parse(try bundle.documentDataForParsing(of: bundle.headVersion))
        try change(&json, context)
        guard case .object = json else {
            throw DocumentKitError(.invalidDocument, "a document must be a JSON object, found \(KeyValueCodec.describe(json))")
        }
        let missing = missingBlobs(in: json, pending: context.pending)
        if !missing.isEmpty { throw DocumentKitError(violations: missing) }
        let headBlobs = try bundle.tree(of: bundle.headVersion)[VersionLayout.blobsFolder]?.fileWrappers ?? [:]
        // Every reference resolves (`missingBlobs` said so): to the head's blob, one the
        // edit attached, or one an older version held, which the new version holds again.
        let digests = json.blobReferences().compactMap { ObjectDigest(hex: $0.digest) }
        guard let blobs = context.pending.blobFiles(digests, headBlobs: headBlobs, fromHistory: true) else {
            throw DocumentKitError(.invalidDocument, "refers to a blob that is not in the bundle")
        }
        var text = json.encoded(pretty: true)
        text.append(0x0A)
        var root = [VersionLayout.documentName: FileWrapper(regularFileWithContents: text)]
        if !blobs.isEmpty { root[VersionLayout.blobsFolder] = FileWrapper(directoryWithFileWrappers: blobs) }
        let contentType = bundle.contentType ?? ContentType(identifier: bundle.manifest.contentType, mimeType: bundle.mimeType)
        return BundleWriter.Request(root: FileWrapper(directoryWithFileWrappers: root), contentType: contentType.identifier,
                                    mimeType: contentType.mimeType, schema: bundle.headVersion.schema, metadata: metadata,
                                    base: bundle, destination: url, replace: true)
    }
}
