import Foundation

/// Objects about to be added to a bundle (attached files), in front of the bundle's own.
package final class PendingObjects: ObjectSource {
    private let base: DocumentBundle?
    private var files: [ObjectDigest: FileWrapper] = [:]

    package init(base: DocumentBundle?) { self.base = base }

    package func add(_ file: FileWrapper, digest: ObjectDigest) { files[digest] = file }

    /// The files of the blobs `digests`, by digest, as a version's `blobs` folder holds
    /// them: the head tree's (`headBlobs`) where it has them, so that they are copied and
    /// not read, else those the edit added, else, with `fromHistory`, the bundle's own
    /// objects (a blob an older version held). `nil` when one is none of these.
    package func blobFiles(
        _ digests: some Sequence<ObjectDigest>, headBlobs: [String: FileWrapper],
        fromHistory: Bool
    ) -> [String: FileWrapper]? {
        var blobs: [String: FileWrapper] = [:]
        for digest in digests where blobs[digest.hex] == nil {
            if let file = headBlobs[digest.hex], file.knownDigest == digest {
                blobs[digest.hex] = file
            } else if let file = files[digest] {
                blobs[digest.hex] = file
            } else if fromHistory, let base, let record = (try? base.objectRecord(digest)) ?? nil {
                blobs[digest.hex] = FileWrapper(object: digest, size: record.size, store: base)
            } else {
                return nil
            }
        }
        return blobs
    }

    package func contains(_ digest: ObjectDigest) -> Bool {
        files[digest] != nil || (try? base?.hasObject(digest)) == true
    }

    package func objectData(_ digest: ObjectDigest) throws -> Data {
        if let file = files[digest] { return try file.regularFileContents() }
        guard let base else { throw DocumentKitError(.notFound, "object \(digest.short) is not available") }
        return try base.objectData(digest)
    }

    package func streamObject(_ digest: ObjectDigest, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let file = files[digest] { return try file.streamContents(body) }
        guard let base else { throw DocumentKitError(.notFound, "object \(digest.short) is not available") }
        try base.streamObject(digest, body)
    }
}

extension PendingObjects {
    /// The references in `json` to blobs neither the bundle nor these objects hold.
    package func missingBlobs(in json: JSONValue) -> [RuleViolation] {
        json.blobReferences().compactMap { reference in
            if let digest = ObjectDigest(hex: reference.digest), contains(digest) { return nil }
            return RuleViolation(
                reference.path.description, "refers to blob \(reference.digest.prefix(12)), which is not in the bundle",
                code: "document.missing-blob")
        }
    }
}
