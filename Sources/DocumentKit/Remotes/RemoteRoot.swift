import Foundation

/// A remote's storage root: made when the remote is empty, checked otherwise.
enum RemoteRoot {
    /// Creates the root's declaration files on an empty remote (``RemoteStore/createRoot(with:)``:
    /// in a folder, all at once; two first pushes write the same bytes); refuses one that
    /// holds something else, or another layout, untouched. With `checkingOnly`, an empty
    /// remote is left so.
    static func prepare(_ remote: any RemoteStore, checkingOnly: Bool = false) throws {
        if try remote.size(OCFLStorageRoot.declaration) != nil {
            try OCFLStorageRoot.checkDeclarations(remote)
            return
        }
        let files = try OCFLStorageRoot.declarationFiles()
        let ours = Set(files.map(\.path))
        if let other = try remote.list(prefix: "").keys.sorted().first(where: { !ours.contains($0) }) {
            throw DocumentKitError(
                .cannotCreateOutput,
                "not a DocumentKit remote (an OCFL 1.1 storage root) and not empty: it holds \(other)",
                path: remote.displayPath)
        }
        if checkingOnly { return }
        try remote.createRoot(with: files)
    }

    /// Refuses a remote that is not a storage root, with `missingInput`. A listing asked
    /// for first makes a missing bucket say so, rather than look like an empty root.
    static func requireRoot(_ remote: any RemoteStore) throws {
        guard try remote.size(OCFLStorageRoot.declaration) != nil else {
            _ = try remote.list(prefix: OCFLStorageRoot.declaration)
            throw DocumentKitError(
                .missingInput, "not a DocumentKit remote: no OCFL storage root (\(OCFLStorageRoot.declaration))",
                path: remote.displayPath)
        }
        try OCFLStorageRoot.checkDeclarations(remote)
    }

    /// The objects of the root, by their folder: what `clone` chooses from. Found by their
    /// declaration files, so the listing covers the whole root, but for its `extensions`
    /// (where a killed push may have left a new object it was building).
    static func objectPaths(_ remote: any RemoteStore) throws -> [String] {
        let suffix = "/" + OCFLObject.declaration
        return try remote.list(prefix: "").keys.filter { $0.hasSuffix(suffix) && !$0.hasPrefix("extensions/") }
            .map { String($0.dropLast(suffix.count)) }.sorted()
    }

    /// Each project of the root at `objectPaths`, in a line a user can tell it by: its
    /// object id, its document's `name` (or `title`) when it has one, and its head version's
    /// number, date, author and message.
    static func describeProjects(_ remote: any RemoteStore, at objectPaths: [String]) -> [String] {
        objectPaths.compactMap { path in
            guard let inventory = try? OCFLObject.readInventory(remote, at: path),
                let head = inventory.versions[inventory.head]
            else { return nil }
            let object = OCFLObject(storage: remote, path: path, inventory: inventory, records: [])
            let document = (try? headDocument(of: object)).flatMap { try? JSONValue.parse($0) }
            let name = ["name", "title"].lazy.compactMap { key -> String? in
                if case .object(let members) = document, case .string(let text)? = members[key] { return text }
                return nil
            }.first
            let by = head.user.map { " by \($0.name)" } ?? ""
            let message = (head.message ?? "").isEmpty ? "" : ": \"\(head.message!)\""
            return
                """
                \(inventory.id)\(name.map { " \"\($0)\"" } ?? "") (head \(inventory.head), \
                \(head.created)\(by)\(message))
                """
        }
    }

    /// The head document of a project's object: a file of its head version, or, in the
    /// history layout, decoded from its newest segments (as far as its delta chain goes).
    private static func headDocument(of object: OCFLObject) throws -> Data {
        guard object.inventory.headLayout == .history else {
            return try object.file(VersionLayout.documentName, in: object.inventory.head)
        }
        let reader = try OCFLHistoryReader(object, scratch: nil)
        let head = try reader.headVersion()
        guard let document = try reader.files(of: head).first(where: { $0.path == VersionLayout.documentName }) else {
            throw DocumentKitError(.malformedInput, "the head version's tree has no \(VersionLayout.documentName)")
        }
        return try reader.data(document.digest)
    }
}
