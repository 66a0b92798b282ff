import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A version's id: the SHA-256 of its record text (see FORMAT.md §5), 64 hex digits.
public typealias VersionID = String

/// One save, as the manifest records it.
///
/// A version's id is the SHA-256 of its record text, which holds everything the save
/// decided (parents, time, author, message, schema, tree, writer) and nothing about where
/// the version sits in one copy's history, so that the same save has the same id in every
/// copy of a bundle, whatever else each copy holds (FORMAT.md §5). Records written before
/// format 2 also hashed their number; they keep it, and their ids, for ever.
public struct BundleVersion: Codable, Sendable, Equatable {
    /// The version's place in this copy's history: 1 for the oldest version ever saved
    /// here, counting pruned ones, then 2, 3, … in the manifest's order. It is local: a
    /// copy that holds other versions may number the same version differently, so only
    /// ids are exchanged.
    public var number: Int
    /// The number a format-1 record hashed into its id (FORMAT.md §5.1); `nil` for the
    /// records this build writes, whose ids cover no number.
    public let numberInID: Int?
    /// The SHA-256 of the record text; see `computeID()`.
    public var id: VersionID
    /// The versions this one was made from: none for the first, one for a save, two for a
    /// merge (the version merged into first).
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
    /// The software that wrote the version, e.g. `DocumentKit 0.3.0`.
    public var writer: String
    /// What changed compared with the first parent, as recorded by the save; absent for a
    /// first version. Not covered by the id (see ``VersionChanges``).
    public var changes: VersionChanges?
    /// The saver's signature of the id, when they had a signing key. Not covered by the id.
    public var signature: VersionSignature?

    /// Creates the record of a new save and computes its id. `number` is only where it
    /// will sit in this copy; the id does not cover it.
    public init(
        number: Int, parents: [VersionID], created: Date, author: String, message: String,
        schema: String, tree: ObjectDigest, writer: String = DocumentKitInfo.writer, changes: VersionChanges? = nil
    ) {
        self.init(
            number: number, numberInID: nil, parents: parents, created: created, author: author, message: message,
            schema: schema, tree: tree, writer: writer, changes: changes)
    }

    /// Creates a record whose id hashes `numberInID` when it is not `nil`, as format 1's
    /// did: what tests and readers of old bundles need, never what a save writes.
    package init(
        number: Int, numberInID: Int?, parents: [VersionID], created: Date, author: String, message: String,
        schema: String, tree: ObjectDigest, writer: String = DocumentKitInfo.writer, changes: VersionChanges? = nil
    ) {
        self.number = number
        self.numberInID = numberInID
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

    /// The record text's format: 1 for records that hash their number, else 2.
    public var recordFormat: Int { numberInID == nil ? 2 : 1 }

    /// The id this record should have: the SHA-256 of its record text (``recordText``).
    public func computeID() -> VersionID {
        ObjectDigest.of(Data(recordText.utf8)).hex
    }

    /// The text a version's id is the SHA-256 of: one field per line, in a fixed order,
    /// strings written as their UTF-8 byte count, a colon and the bytes, so that readers
    /// in other languages can recompute it (FORMAT.md §5).
    public var recordText: String {
        Self.recordText(
            numberInID: numberInID, parents: parents, created: created, author: author, message: message,
            schema: schema, tree: tree, writer: writer)
    }

    /// The record text of a record holding these fields; see ``recordText``.
    static func recordText(
        numberInID: Int?, parents: [VersionID], created: Date, author: String, message: String,
        schema: String, tree: ObjectDigest, writer: String
    ) -> String {
        func field(_ text: String) -> String { "\(text.utf8.count):\(text)" }
        var lines = ["documentkit-version \(numberInID == nil ? 2 : 1)"]
        if let numberInID { lines.append("number \(numberInID)") }
        lines += [
            "parents \(field(parents.joined(separator: ",")))",
            "created \(field(DocumentDates.format(created)))",
            "author \(field(author))",
            "message \(field(message))",
            "schema \(field(schema))",
            "tree \(tree.hex)",
            "writer \(field(writer))"
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The first twelve digits of the id.
    public var shortID: String { String(id.prefix(12)) }

    // MARK: Coding

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case number, id, parents, created, author, message, schema, tree, writer, changes, signature
    }

    /// The members a record may have (FORMAT.md §5); a validator refuses any other, which
    /// neither the id nor a signature would cover.
    package static let memberNames = Set(CodingKeys.allCases.map(\.rawValue))

    /// Decodes a record. A record with a `number` member is a format-1 record, whose
    /// number is part of its id; `number` is the manifest's to set from the record's place
    /// (``BundleManifest``), and is the recorded one until then.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        numberInID = try container.decodeIfPresent(Int.self, forKey: .number)
        number = numberInID ?? 0
        id = try container.decode(VersionID.self, forKey: .id)
        parents = try container.decode([VersionID].self, forKey: .parents)
        created = try container.decode(Date.self, forKey: .created)
        author = try container.decode(String.self, forKey: .author)
        message = try container.decode(String.self, forKey: .message)
        schema = try container.decode(String.self, forKey: .schema)
        tree = try container.decode(ObjectDigest.self, forKey: .tree)
        writer = try container.decode(String.self, forKey: .writer)
        changes = try container.decodeIfPresent(VersionChanges.self, forKey: .changes)
        signature = try container.decodeIfPresent(VersionSignature.self, forKey: .signature)
    }

    /// Encodes the record: the local `number` is written only where the id covers it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(numberInID, forKey: .number)
        try container.encode(id, forKey: .id)
        try container.encode(parents, forKey: .parents)
        try container.encode(created, forKey: .created)
        try container.encode(author, forKey: .author)
        try container.encode(message, forKey: .message)
        try container.encode(schema, forKey: .schema)
        try container.encode(tree, forKey: .tree)
        try container.encode(writer, forKey: .writer)
        try container.encodeIfPresent(changes, forKey: .changes)
        try container.encodeIfPresent(signature, forKey: .signature)
    }
}
