import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A tree object: one folder of a version's file tree, stored as an object like any other.
///
/// Folders that did not change between two versions have the same digest and are
/// stored once, so a save's manifest and trees grow with what changed, not with history.
package struct TreeObject: Codable, Equatable {
    /// One name in the folder.
    package struct Entry: Codable, Equatable {
        package enum Kind: String, Codable { case file, tree }
        /// The file or folder name: one path component.
        package var name: String
        package var kind: Kind
        /// A file's object, or a folder's tree object.
        package var digest: ObjectDigest
        /// A file's size in bytes; absent for folders.
        package var size: UInt64?

        private enum CodingKeys: String, CodingKey {
            case name
            case kind = "type"
            case digest, size
        }
    }

    /// The entries, sorted by name (by UTF-8 bytes).
    package var entries: [Entry]

    package init(entries: [Entry]) { self.entries = entries }

    /// The canonical bytes: compact JSON with sorted keys, entries sorted by name.
    package func encoded() throws -> Data {
        var sorted = self
        sorted.entries.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        return try CanonicalJSONEncoder(pretty: false).encode(sorted)
    }

    /// Parses a tree object, checking that every name is one safe path component and that
    /// no two names would name the same file on a case-insensitive file system.
    ///
    /// The text is parsed by DocumentKit's own JSON parser, which refuses nesting past
    /// the depth limit and duplicate member names with a located message, and decoded
    /// from what it parsed.
    package static func decode(_ data: Data, digest: ObjectDigest) throws -> TreeObject {
        let tree: TreeObject
        do {
            tree = try JSONValueDecoder().decode(
                TreeObject.self, from: JSONValue.parse(data, depthLimit: JSONDepth.defaultLimit))
        } catch let error as DocumentKitError {
            throw DocumentKitError(
                .malformedInput, "tree object is not valid: \(error.message)", location: "object \(digest.short)")
        } catch {
            throw DocumentKitError(
                .malformedInput, "tree object is not valid: \(DecodingErrorDescription.describe(error))",
                location: "object \(digest.short)")
        }
        var seen = Set<String>()
        for entry in tree.entries {
            if let problem = problem(withName: entry.name) {
                throw DocumentKitError(
                    .malformedInput, "tree object has an unsafe name '\(entry.name)': \(problem)",
                    location: "object \(digest.short)")
            }
            guard seen.insert(ArchiveEntryName.collisionKey(entry.name)).inserted else {
                throw DocumentKitError(
                    .malformedInput,
                    """
                    tree object names '\(entry.name)' twice, or with another name differing only in case or \
                    Unicode normalization
                    """,
                    location: "object \(digest.short)")
            }
        }
        return tree
    }

    /// The longest name in a tree, in UTF-8 bytes: the longest file name Linux, macOS and
    /// Windows file systems take (NAME_MAX), so that every exported folder can be created.
    package static let maxNameBytes = 255

    /// Why `name` cannot name a file or folder in a tree (FORMAT.md §6), or `nil`: it must
    /// be one path component, as an entry name's rules see it (``ArchiveEntryName``).
    package static func problem(withName name: String) -> String? {
        if name == "." || name == ".." { return "it is '\(name)'" }
        if name.contains("/") { return "it contains '/'" }
        if name.utf8.count > maxNameBytes { return "it is \(name.utf8.count) bytes long; the limit is \(maxNameBytes)" }
        do {
            try ArchiveEntryName.validate(name)
        } catch {
            return error.message
        }
        return nil
    }
}
