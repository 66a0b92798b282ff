import DocumentKitBundle
import DocumentKitJSON
import Foundation

extension SaveContent {
    /// `json` as the next version of a bundle whose type is not registered, checked by the
    /// format's rules alone (FORMAT.md §7): the document must be an object, and every blob
    /// it refers to must be in the bundle or added by the edit (`pending`). The version
    /// keeps the head's content type and schema, and its tree holds exactly the blobs the
    /// document refers to.
    package static func schemaless(_ json: JSONValue, over bundle: DocumentBundle, pending: PendingObjects) throws
        -> SaveContent
    {
        guard case .object = json else {
            throw DocumentKitError(
                .invalidDocument, "a document must be a JSON object, found \(KeyValueCodec.describe(json))")
        }
        let missing = pending.missingBlobs(in: json)
        if !missing.isEmpty { throw DocumentKitError(violations: missing) }
        let headBlobs = try bundle.tree(of: bundle.headVersion)[VersionLayout.blobsFolder]?.fileWrappers ?? [:]
        // Every reference resolves (`missingBlobs` said so): to the head's blob, one the
        // edit attached, or one an older version held, which the new version holds again.
        let digests = json.blobReferences().compactMap { ObjectDigest(hex: $0.digest) }
        guard let blobs = pending.blobFiles(digests, headBlobs: headBlobs, fromHistory: true) else {
            throw DocumentKitError(.invalidDocument, "refers to a blob that is not in the bundle")
        }
        var text = json.encoded(pretty: true)
        text.append(0x0A)
        var root = [VersionLayout.documentName: FileWrapper(regularFileWithContents: text)]
        if !blobs.isEmpty { root[VersionLayout.blobsFolder] = FileWrapper(directoryWithFileWrappers: blobs) }
        return SaveContent(
            root: FileWrapper(directoryWithFileWrappers: root), contentType: bundle.storedContentType,
            schema: bundle.headVersion.schema)
    }
}
