/// What deleting a record does to the records related to it, as SwiftData's
/// `Schema.Relationship.DeleteRule` and Realm's cascading deletes: applied by every write
/// transaction (see `DocumentRelationship`).
public enum DeleteRule: String, Sendable, Codable, CaseIterable {
    /// Delete the related records too (and, in turn, what their own rules say).
    case cascade
    /// Keep the related records; remove their references to the deleted one.
    case nullify
    /// Refuse the delete while related records exist: the transaction fails and saves nothing.
    case deny
}
