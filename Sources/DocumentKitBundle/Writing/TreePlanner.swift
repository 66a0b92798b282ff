import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// Turns a document's file tree into tree objects and a list of the objects the bundle
/// does not have yet. Files read from the base bundle are recognised by their digest and
/// neither read nor hashed again.
package final class TreePlanner {
    /// An object that must be written because the base bundle lacks it.
    package enum PendingObject {
        case data(Data)
        case file(FileWrapper)
        /// Bytes already encoded for storing, with their record: a delta.
        case encoded(Data, ObjectRecord)
        /// An object of another copy of the bundle, its stored bytes and record copied as
        /// they are (a pull, which checked them first).
        case copied(DocumentBundle)
    }

    package let base: DocumentBundle?
    package private(set) var pending: [ObjectDigest: PendingObject] = [:]
    package private(set) var sizes: [ObjectDigest: UInt64] = [:]
    /// The digest of each regular file stored, by the file.
    private var fileDigests: [ObjectIdentifier: ObjectDigest] = [:]
    private let maxDepth: Int

    package init(base: DocumentBundle?, maxDepth: Int = BundleLimits.default.maxTreeDepth) {
        self.base = base
        self.maxDepth = maxDepth
    }

    /// Stores a folder's tree (and everything below it) and returns its digest.
    package func storeTree(_ node: FileWrapper, path: String = "", depth: Int = 0) throws -> ObjectDigest {
        guard let children = node.fileWrappers else {
            throw DocumentKitError(.invalidDocument, "the root of a document's tree must be a folder")
        }
        guard depth < maxDepth else {
            throw DocumentKitError(
                .invalidDocument, "folders are nested more than \(maxDepth) levels deep", location: path)
        }
        var entries: [TreeObject.Entry] = []
        var collisionKeys = Set<String>()
        for (name, child) in children {
            if let problem = TreeObject.problem(withName: name) {
                throw DocumentKitError(
                    .invalidDocument, "'\(name)' is not a valid file name: \(problem)", location: path)
            }
            // Readers refuse such a tree: it could not be exported to macOS or Windows.
            guard collisionKeys.insert(ArchiveEntryName.collisionKey(name)).inserted else {
                throw DocumentKitError(
                    .invalidDocument,
                    "'\(name)' differs from another name in its folder only in case or Unicode normalization",
                    location: path)
            }
            let childPath = path.isEmpty ? name : "\(path)/\(name)"
            if child.isDirectory {
                entries.append(
                    .init(name: name, kind: .tree, digest: try storeTree(child, path: childPath, depth: depth + 1)))
            } else {
                let (digest, size) = try storeFile(child, path: childPath)
                entries.append(.init(name: name, kind: .file, digest: digest, size: size))
            }
        }
        let data = try TreeObject(entries: entries).encoded()
        let digest = ObjectDigest.of(data)
        try add(digest, size: UInt64(data.count), .data(data))
        return digest
    }

    /// Stores one regular file and returns its digest and size.
    package func storeFile(_ file: FileWrapper, path: String) throws -> (ObjectDigest, UInt64) {
        let digest: ObjectDigest
        let size: UInt64
        switch file.contents {
        case .directory:
            preconditionFailure("storeFile is called for regular files only")
        case .object(let known, let knownSize, _):
            (digest, size) = (known, knownSize)
            try add(digest, size: size, .file(file))
        case .data(let data):
            (digest, size) = (ObjectDigest.of(data), UInt64(data.count))
            try add(digest, size: size, .data(data))
        case .file(_, let knownSize):
            (digest, size) = try hashedFile(file, knownSize: knownSize)
            try add(digest, size: size, .file(file))
        case .entry(let entry, _):
            (digest, size) = try hashedFile(file, knownSize: entry.size)
            try add(digest, size: size, .file(file))
        case .stream(let knownSize, _):
            (digest, size) = try hashedFile(file, knownSize: knownSize)
            try add(digest, size: size, .file(file))
        }
        if let expected = file.expectedDigest, expected != digest {
            throw DocumentKitError(
                .invalidDocument,
                "the file changed after it was attached (its SHA-256 is now \(digest.short)…, was \(expected.short)…)",
                location: path)
        }
        fileDigests[ObjectIdentifier(file)] = digest
        return (digest, size)
    }

    /// The digest and size of a file on disk: the digest it was attached with, or its
    /// bytes' digest, read in a stream.
    private func hashedFile(_ file: FileWrapper, knownSize: UInt64) throws -> (ObjectDigest, UInt64) {
        if let expected = file.expectedDigest {
            // Hashed when it was attached; the write hashes it again as it copies the
            // bytes and refuses the save if they changed, so planning can trust it.
            return (expected, knownSize)
        }
        var hasher = ObjectHasher()
        try file.streamContents { hasher.update($0) }
        return (hasher.finalize(), hasher.byteCount)
    }

    /// The digest `file` was stored under, if it was.
    package func digest(of file: FileWrapper) -> ObjectDigest? { fileDigests[ObjectIdentifier(file)] }

    private func add(_ digest: ObjectDigest, size: UInt64, _ object: PendingObject) throws {
        sizes[digest] = size
        if pending[digest] == nil, try base?.hasObject(digest) != true {
            pending[digest] = object
        }
    }
}
