import DocumentKitBundle
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension SaveContent {
    /// `text` completed as a `T` and committed as a write transaction: the type's
    /// relationships applied from `before`, every rule checked, each broken one listed with
    /// `alsoBroken`. New ids derive from `seed`, by default the base's head and the text's
    /// digest; dates from `created`. When the program writes an older schema
    /// (``DocumentKitConfiguration/writeSchema``), the text is checked by that schema's model instead.
    package static func typed<T: CodableDocument>(
        _ type: T.Type, text: consuming Data, base: DocumentBundle?, pending: PendingObjects,
        before: RelationshipSnapshots = .empty, alsoBroken: [RuleViolation] = [],
        seed: String? = nil, created: Date
    ) throws -> SaveContent {
        if let schema = try DocumentKitConfiguration.current.writeSchemaOverride(for: T.self) {
            if !alsoBroken.isEmpty { throw DocumentKitError(violations: alsoBroken) }
            return try typed(T.self, writing: schema, text: text, base: base, pending: pending, created: created)
        }
        let seed = seed ?? "\(base?.headVersion.id ?? "new")/\(ObjectDigest.of(text).hex)"
        var document = try T.decodeSchema(
            text, context: DocumentDecodingContext(now: created, seed: seed, objectSource: pending))
        try DocumentTransaction.complete(&document, before: before, alsoBroken: alsoBroken)
        // From here on the document exists as typed values only: let the text and the
        // decoder's scratch memory go before the typed values are encoded again.
        _ = consume text
        MemoryPressure.releaseFreedMemory()
        return try SaveContent(document: document, contentType: T.contentType, over: base)
    }

    /// `text` as a document of the older `schema` of `T`: completed and checked by that
    /// version's model (the type's rules beyond its schema are today's, so they are not
    /// applied), recording that schema.
    private static func typed<T: CodableDocument, Schema: VersionedSchema>(
        _ type: T.Type, writing schema: Schema.Type, text: Data, base: DocumentBundle?, pending: PendingObjects,
        created: Date
    ) throws -> SaveContent {
        let seed = "\(base?.headVersion.id ?? "new")/\(ObjectDigest.of(text).hex)"
        let context = DocumentDecodingContext(now: created, seed: seed, objectSource: pending)
        let model: Schema.Model
        do {
            model = try SchemaCoding.decode(Schema.Model.self, from: text, context: context)
        } catch let error as DocumentKitError {
            throw error
        } catch {
            let (path, message) = DecodingErrorDescription.locate(error)
            throw DocumentKitError(
                .invalidDocument, "\(message) (\(T.contentType.identifier) schema \(Schema.versionIdentifier))",
                location: path)
        }
        let existing = try base.map { try $0.tree(of: $0.headVersion) }
        return SaveContent(
            root: try VersionLayout.fileWrapper(for: model, existingFile: existing), contentType: T.contentType,
            schema: Schema.versionIdentifier.description)
    }
}
