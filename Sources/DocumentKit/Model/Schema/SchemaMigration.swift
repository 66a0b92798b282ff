import Foundation

/// The stages that take a document from one schema to another, in the order they run.
public struct SchemaMigration {
    /// The schema the document was stored with.
    public let from: SchemaVersion
    /// The schema it is migrated to.
    public let to: SchemaVersion
    /// The stages, in order; empty when `from` is `to`.
    public let stages: [MigrationStage]

    /// Whether nothing has to run.
    public var isEmpty: Bool { stages.isEmpty }

    /// Runs the stages on `json`, each on what the one before wrote. The result is `json`
    /// itself when there is no stage, else compact canonical JSON.
    public func run(on json: Data, context: DocumentDecodingContext = DocumentDecodingContext()) throws -> Data {
        var json = json
        for stage in stages {
            json = try stage.apply(to: json, context: context)
        }
        return json
    }
}
