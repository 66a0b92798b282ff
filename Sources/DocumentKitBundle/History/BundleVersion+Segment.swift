import DocumentKitCore
import DocumentKitJSON
import Foundation

extension BundleVersion {
    /// The record as a history segment stores it (FORMAT.md §12.2): its compact
    /// canonical JSON without `id`, which its record text gives.
    package func segmentRecord() throws -> Data {
        guard case .object(var members) = try JSONValue.parse(try CanonicalJSONEncoder().encode(self)) else {
            preconditionFailure("a record encodes to a JSON object")
        }
        members["id"] = nil
        return JSONValue.object(members).encoded(pretty: false)
    }

    /// A version as a segment holds it, numbered `number`: its id is the SHA-256 of its
    /// record text (FORMAT.md §5), so no stored id can disagree with it.
    package init(segmentRecord record: Data, number: Int) throws {
        guard case .object(var members) = try JSONValue.parse(record), members["id"] == nil else {
            throw HistorySegment.failure("a version record is not a JSON object without an id")
        }
        members["id"] = .string("")
        do {
            self = try JSONValueDecoder().decode(BundleVersion.self, from: .object(members))
        } catch let error as DecodingError {
            // A damaged record is damaged input, said as such (found by fuzz/, target bundle).
            throw HistorySegment.failure("a version record is invalid: \(DecodingErrorDescription.describe(error))")
        }
        self.number = number
        id = computeID()
    }

    /// The id of the version `record` holds (a segment's record, without `id`): what a
    /// reader needs of every record it passes, taken from the members the record text
    /// covers without decoding the rest (its changes, its signature). A record those
    /// members do not plainly make is decoded whole, which gives the error.
    package static func id(ofSegmentRecord record: Data) throws -> VersionID {
        try identified(segmentRecord: record).id
    }

    /// The id of the version `record` holds, as ``id(ofSegmentRecord:)`` gives it, and the
    /// record's members as parsed for it: what `validate` checks of a record, parsed once.
    package static func identified(segmentRecord record: Data) throws -> (id: VersionID, members: [String: JSONValue]) {
        guard case .object(let members) = try JSONValue.parse(record) else {
            throw HistorySegment.failure("a version record is not a JSON object without an id")
        }
        if members["id"] == nil,
            case .array(let parentValues)? = members["parents"], case .string(let createdText)? = members["created"],
            let created = DocumentDates.parse(createdText), case .string(let author)? = members["author"],
            case .string(let message)? = members["message"], case .string(let schema)? = members["schema"],
            case .string(let treeText)? = members["tree"], let tree = ObjectDigest(hex: treeText),
            case .string(let writer)? = members["writer"]
        {
            var parents: [VersionID] = []
            for case .string(let parent) in parentValues { parents.append(parent) }
            var numberInID: Int?
            if case .integer(let number)? = members["number"] { numberInID = Int(exactly: number) }
            if parents.count == parentValues.count, (numberInID == nil) == (members["number"] == nil) {
                let text = recordText(
                    numberInID: numberInID, parents: parents, created: created, author: author,
                    message: message, schema: schema, tree: tree, writer: writer)
                return (ObjectDigest.of(Data(text.utf8)).hex, members)
            }
        }
        return (try BundleVersion(segmentRecord: record, number: 0).id, members)
    }
}
