import Foundation

/// The ids every relationship of a document relates, in the order of
/// `CodableDocument.relationships`: the "before" of a transaction.
public struct RelationshipSnapshots: Sendable {
    package let snapshots: [RelationshipSnapshot]

    /// The snapshots of a document with no records: every record of a new one is new.
    public static let empty = RelationshipSnapshots(snapshots: [])
}
