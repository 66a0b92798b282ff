import Foundation

/// A top-level array of a document's records, under its JSON key: what a document is
/// made of besides its few top-level fields.
///
/// The collection's rules are the records' own, each under `key[index]`, and unique ids
/// (`tasks[3].id: … is used by another task`). The array must be encoded under `key` as
/// the document's member, and left out, if at all, only when empty.
public struct RecordCollection<Document>: @unchecked Sendable {
    /// The collection's JSON key, e.g. `tasks`.
    public let key: String
    /// What one record is called in messages, e.g. `task`.
    public let recordName: String

    @usableFromInline package let violations: (Document) -> [RuleViolation]
    @usableFromInline package let decodeRecord: (JSONValue, DocumentDecodingContext) throws -> any DocumentRecord
    @usableFromInline package let encodeRecord: (any DocumentRecord) throws -> Data

    /// The collection of `Record`s at `records`, stored under `key`.
    ///
    /// Inlinable, so that the rules' closures are compiled in the document type's module,
    /// for its types: checked through generic code, reading the records by key path costs a
    /// run-time lookup of the types' metadata for every record.
    @inlinable
    public init<Record: DocumentRecord>(_ key: String, _ records: KeyPath<Document, [Record]>, recordName: String) {
        self.key = key
        self.recordName = recordName
        violations = { document in
            let all = document[keyPath: records]
            WorkMeter.count(.ruleSteps, all.count)
            var broken: [RuleViolation] = []
            for (index, record) in all.enumerated() {
                broken += record.ruleViolations().map { $0.inside("\(key)[\(index)]") }
            }
            broken += Self.duplicateIDs(all.map(\.id), key: key, recordName: recordName)
            return broken
        }
        (decodeRecord, encodeRecord) = Self.recordCoding(Record.self)
    }

    /// Decoding and encoding one record: used by one-record edits, where the coder's own
    /// work is what costs.
    @usableFromInline
    package static func recordCoding<Record: DocumentRecord>(_ type: Record.Type) -> (
        decode: (JSONValue, DocumentDecodingContext) throws -> any DocumentRecord,
        encode: (any DocumentRecord) throws -> Data
    ) {
        // From the parsed record: through `JSONDecoder`, the record is encoded to text and
        // parsed again (a column listing 25,000 tasks cost 30 ms each way).
        let decode = { (json: JSONValue, context: DocumentDecodingContext) throws -> any DocumentRecord in
            var decoder = JSONValueDecoder()
            decoder.userInfo[.documentKitContext] = context
            return try decoder.decode(Record.self, from: json)
        }
        return (decode, { record in try CanonicalJSONEncoder().encode(record as! Record) })
    }

    /// `key[index].id: … is used by another …` for every id that an earlier record has.
    @usableFromInline
    package static func duplicateIDs(_ ids: [UUID], key: String, recordName: String) -> [RuleViolation] {
        var seen = Set<UUID>()
        var broken: [RuleViolation] = []
        for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
            broken.append(RuleViolation("\(key)[\(index)].id", "\(id) is used by another \(recordName)"))
        }
        return broken
    }
}
