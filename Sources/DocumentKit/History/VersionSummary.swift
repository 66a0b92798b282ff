import Foundation

/// One version as `docctl log` and `info` report it.
public struct VersionSummary: Codable, Equatable, Sendable {
    public var number: Int
    public var id: String
    public var parents: [String]
    public var created: String
    public var author: String
    public var message: String
    public var schema: String
    public var writer: String
    /// What the version changed, when its save recorded it.
    public var changes: VersionChanges?

    public init(_ version: BundleVersion) {
        number = version.number
        id = version.id
        parents = version.parents
        created = DocumentDates.format(version.created)
        author = version.author
        message = version.message
        schema = version.schema
        writer = version.writer
        changes = version.changes
    }
}
