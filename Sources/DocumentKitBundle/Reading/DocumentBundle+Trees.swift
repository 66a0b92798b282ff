import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension DocumentBundle {
    /// The root of `version`'s file tree; file contents are read when asked for.
    ///
    /// Throws `malformedInput` for a tree nested more than ``BundleLimits/maxTreeDepth``
    /// folders deep or holding more than ``BundleLimits/maxTreeEntries`` files and folders.
    /// Trees are content-addressed, so one small tree object may appear under many names:
    /// 48 objects, each naming the one below twice, describe 2^48 paths. The tree is
    /// therefore measured first, decoding each distinct tree object once, and built only
    /// when it is within the limits.
    public func tree(of version: BundleVersion) throws -> FileWrapper {
        try DocumentKitError.located(at: url.relativePath) {
            var measured: [ObjectDigest: MeasuredTree] = [:]
            _ = try measureTree(version.tree, depth: 0, measured: &measured)
            return build(version.tree, from: measured)
        }
    }

    /// The tree object `digest`, decoded once per opened bundle (tree objects never change:
    /// an edit reads the head's root tree for its document, again for its blobs, and the
    /// save once more).
    package func treeObject(_ digest: ObjectDigest) throws -> TreeObject {
        if let known = decodedTrees.value[digest] { return known }
        let object = try TreeObject.decode(try objectData(digest), digest: digest)
        decodedTrees.mutate { $0[digest] = object }
        return object
    }

    /// A decoded tree object with the size of what hangs below it.
    package struct MeasuredTree {
        package var object: TreeObject
        /// Files and folders below, counted once per path.
        package var entryCount: Int
        /// Folders on the longest path down, this one included.
        package var height: Int
    }

    /// Decodes `digest` and every tree below it once each, checking names, manifest
    /// listings, depth and the entry count.
    private func measureTree(_ digest: ObjectDigest, depth: Int, measured: inout [ObjectDigest: MeasuredTree]) throws
        -> MeasuredTree
    {
        if let known = measured[digest] {
            guard depth + known.height <= limits.maxTreeDepth else { throw tooDeep(digest) }
            return known
        }
        guard depth < limits.maxTreeDepth else { throw tooDeep(digest) }
        let object = try treeObject(digest)
        var result = MeasuredTree(object: object, entryCount: 0, height: 1)
        for entry in object.entries {
            result.entryCount += 1
            switch entry.kind {
            case .tree:
                let child = try measureTree(entry.digest, depth: depth + 1, measured: &measured)
                result.entryCount += child.entryCount
                result.height = max(result.height, child.height + 1)
            case .file:
                guard try hasObject(entry.digest) else {
                    throw DocumentKitError(
                        .malformedInput,
                        "'\(entry.name)' refers to object \(entry.digest.short), which the manifest does not list",
                        location: "object \(digest.short)")
                }
            }
            guard result.entryCount <= limits.maxTreeEntries else {
                throw DocumentKitError(
                    .malformedInput, "the version's tree holds more than \(limits.maxTreeEntries) files and folders",
                    location: "object \(digest.short)")
            }
        }
        measured[digest] = result
        return result
    }

    private func tooDeep(_ digest: ObjectDigest) -> DocumentKitError {
        DocumentKitError(
            .malformedInput, "folders are nested more than \(limits.maxTreeDepth) levels deep",
            location: "object \(digest.short)")
    }

    /// The file tree of a measured tree object.
    private func build(_ digest: ObjectDigest, from measured: [ObjectDigest: MeasuredTree]) -> FileWrapper {
        var children: [String: FileWrapper] = [:]
        for entry in measured[digest]!.object.entries {
            switch entry.kind {
            case .tree: children[entry.name] = build(entry.digest, from: measured)
            case .file:
                // Measured trees list only stored files (`measureTree`).
                let size =
                    history == nil
                    ? decodedManifest.objects[entry.digest]!.size
                    : entry.size ?? ((try? objectRecord(entry.digest))??.size ?? 0)
                children[entry.name] = FileWrapper(object: entry.digest, size: size, store: self)
            }
        }
        return FileWrapper(directoryWithFileWrappers: children)
    }
}
