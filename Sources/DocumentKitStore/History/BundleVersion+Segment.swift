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
        self = try DocumentDates.decoder().decode(BundleVersion.self, from: JSONValue.object(members).encoded(pretty: false))
        self.number = number
        id = computeID()
    }
}
