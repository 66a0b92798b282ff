import Foundation

/// Objects about to be added to a bundle (attached files), in front of the bundle's own.
package final class ObjectOverlay: ObjectSource {
    private let base: DocumentBundle?
    private var files: [ObjectDigest: FileWrapper] = [:]

    package init(base: DocumentBundle?) { self.base = base }

    package func add(_ file: FileWrapper, digest: ObjectDigest) { files[digest] = file }

    /// The file added under `digest`, if one was.
    package func addedFile(_ digest: ObjectDigest) -> FileWrapper? { files[digest] }

    package func contains(_ digest: ObjectDigest) -> Bool {
        files[digest] != nil || base?.manifest.objects[digest] != nil
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
