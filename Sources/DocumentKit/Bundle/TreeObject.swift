import Foundation

/// A tree object: one folder of a version's file tree, stored as an object like any other.
///
/// Folders that did not change between two versions have the same digest and are
/// stored once, so a save's manifest and trees grow with what changed, not with history.
struct TreeObject: Codable, Equatable {
    /// One name in the folder.
    struct Entry: Codable, Equatable {
        enum Kind: String, Codable { case file, tree }
        /// The file or folder name: one path component.
        var name: String
        var kind: Kind
        /// A file's object, or a folder's tree object.
        var digest: ObjectDigest
        /// A file's size in bytes; absent for folders.
        var size: UInt64?

        private enum CodingKeys: String, CodingKey { case name, kind = "type", digest, size }
    }

    /// The entries, sorted by name (by UTF-8 bytes).
    var entries: [Entry]

    /// The canonical bytes: compact JSON with sorted keys, entries sorted by name.
    func encoded() throws -> Data {
        var sorted = self
        sorted.entries.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        return try CanonicalJSONEncoder(pretty: false).encode(sorted)
    }

    /// Parses a tree object, checking that every name is one safe path component.
    static func decode(_ data: Data, digest: ObjectDigest) throws -> TreeObject {
        let tree: TreeObject
        do {
            tree = try DocumentDates.decoder().decode(TreeObject.self, from: data)
        } catch {
            throw DocumentKitError(.malformedInput, "tree object is not valid: \(DecodingErrorDescription.describe(error))", location: "object \(digest.short)")
        }
        var seen = Set<String>()
        for entry in tree.entries {
            guard !entry.name.isEmpty, entry.name != ".", entry.name != "..", !entry.name.contains("/"),
                  !entry.name.contains("\\"), !entry.name.contains("\0") else {
                throw DocumentKitError(.malformedInput, "tree object has an unsafe name '\(entry.name)'", location: "object \(digest.short)")
            }
            guard seen.insert(entry.name).inserted else {
                throw DocumentKitError(.malformedInput, "tree object names '\(entry.name)' twice", location: "object \(digest.short)")
            }
        }
        return tree
    }
}
