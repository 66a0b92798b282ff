import Foundation

/// A remote's storage root: made when the remote is empty, checked otherwise.
enum RemoteRoot {
    /// Creates the root's declaration files on an empty remote (each written only when
    /// missing: two first pushes write the same bytes); refuses one that holds something
    /// else, or another layout, untouched. With `checkingOnly`, an empty remote is left so.
    static func prepare(_ remote: any RemoteStore, checkingOnly: Bool = false) throws {
        if try remote.size(OCFLStorageRoot.declaration) != nil {
            try OCFLStorageRoot.checkDeclarations(remote)
            return
        }
        let files = try OCFLStorageRoot.declarationFiles()
        let ours = Set(files.map(\.path))
        if let other = try remote.list(prefix: "").keys.sorted().first(where: { !ours.contains($0) }) {
            throw DocumentKitError(.cannotCreateOutput, "not a DocumentKit remote (an OCFL 1.1 storage root) and not empty: it holds \(other)", path: remote.displayPath)
        }
        if checkingOnly { return }
        for (path, data) in files {
            try remote.write(path, data)
        }
    }

    /// Refuses a remote that is not a storage root, with `missingInput`. A listing asked
    /// for first makes a missing bucket say so, rather than look like an empty root.
    static func requireRoot(_ remote: any RemoteStore) throws {
        guard try remote.size(OCFLStorageRoot.declaration) != nil else {
            _ = try remote.list(prefix: OCFLStorageRoot.declaration)
            throw DocumentKitError(.missingInput, "not a DocumentKit remote: no OCFL storage root (\(OCFLStorageRoot.declaration))", path: remote.displayPath)
        }
        try OCFLStorageRoot.checkDeclarations(remote)
    }

    /// The objects of the root, by their folder: what `clone` chooses from. Found by their
    /// declaration files, so the listing covers the whole root.
    static func objectPaths(_ remote: any RemoteStore) throws -> [String] {
        let suffix = "/" + OCFLObject.declaration
        return try remote.list(prefix: "").keys.filter { $0.hasSuffix(suffix) }.map { String($0.dropLast(suffix.count)) }.sorted()
    }
}
