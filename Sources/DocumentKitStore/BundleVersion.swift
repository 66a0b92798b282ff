import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A version's id: the SHA-256 of its record (see FORMAT.md), 64 hex digits.
public typealias VersionID = String

/// One save, as the manifest records it.
public struct BundleVersion: Codable, Sendable, Equatable {
    /// 1 for the first save, then 2, 3, … in the order versions were made; never reused.
    public var number: Int
    /// The SHA-256 of this record's other fields; see `computeID()`.
    public var id: VersionID
    /// The version this one was made from (none for the first).
    public var parents: [VersionID]
    /// When the save happened, UTC, whole seconds.
    public var created: Date
    /// Who saved it.
    public var author: String
    /// Why, in the author's words.
    public var message: String
    /// The document type's schema version the tree was written with.
    public var schema: String
    /// The digest of the version's root tree object.
    public var tree: ObjectDigest
    /// The software that wrote the version, e.g. `DocumentKit 0.1.0`.
    public var writer: String
    /// What changed compared with the parent, as recorded by the save; absent for a first
    /// version. Not covered by the id (see ``VersionChanges``).
    public var changes: VersionChanges?

    /// Creates a version record and computes its id.
    public init(number: Int, parents: [VersionID], created: Date, author: String, message: String,
                schema: String, tree: ObjectDigest, writer: String = DocumentKitInfo.writer, changes: VersionChanges? = nil) {
        self.number = number
        self.id = ""
        self.parents = parents
        self.created = created
        self.author = author
        self.message = message
        self.schema = schema
        self.tree = tree
        self.writer = writer
        self.changes = changes
        self.id = computeID()
    }

    /// The id this record should have: the SHA-256 of a text with one field per line, in
    /// a fixed order, each string written as its UTF-8 byte count, a colon and the bytes.
    /// Readers in other languages can recompute it; see FORMAT.md.
    public func computeID() -> VersionID {
        func field(_ text: String) -> String { "\(text.utf8.count):\(text)" }
        let text = [
            "documentkit-version 1",
            "number \(number)",
            "parents \(field(parents.joined(separator: ",")))",
            "created \(field(DocumentDates.format(created)))",
            "author \(field(author))",
            "message \(field(message))",
            "schema \(field(schema))",
            "tree \(tree.hex)",
            "writer \(field(writer))",
        ].joined(separator: "\n") + "\n"
        return ObjectDigest.of(Data(text.utf8)).hex
    }

    /// The first twelve digits of the id.
    public var shortID: String { String(id.prefix(12)) }
}

/// Facts about this build of DocumentKit.
public enum DocumentKitInfo {
    /// The library's version.
    public static let version = "0.1.0"
    /// What a version's `writer` field records.
    public static let writer = "DocumentKit \(version)"
}
