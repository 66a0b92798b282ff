import DocumentKitBundle
import DocumentKitJSON
import Foundation

/// What `validate` needs of one history segment, read and checked on its own, so that a
/// long history's segments are read side by side (``OrderedWork``) and then checked in
/// order: the segment whole (``HistorySegment/Reader/verifyItems(identifying:_:)``), each
/// record parsed once, for its id, its members, its parents, its tree and its signature.
struct SegmentFacts: Sendable {
    enum Item: Sendable {
        case object(HistorySegment.ObjectItem.Summary)
        case version(Record)
        case pruned(VersionID)
    }

    /// A record, as far as the checks after need it.
    struct Record: Sendable {
        var id: VersionID
        var parents: [VersionID]
        var recordFormat: Int
        var tree: ObjectDigest?
        /// The members the format does not define, by their paths.
        var unknownMembers: [String]
        var signature: SignatureCheck
    }

    enum SignatureCheck: Sendable {
        case none, valid, invalid, malformed
    }

    var items: [Item] = []
    /// Why the segment could not be read whole; then `items` is empty.
    var failure: String?

    /// Reads the segment `reader` reads.
    init(_ reader: HistorySegment.Reader) {
        do {
            // Each record's members, parsed as it is identified, go into its facts at once.
            var members: [String: JSONValue] = [:]
            var items: [Item] = []
            try reader.verifyItems(identifying: { record in
                let identified = try BundleVersion.identified(segmentRecord: record)
                members = identified.members
                return identified.id
            }) { item in
                switch item {
                case .object(let object): items.append(.object(object.summary))
                case .version(let id, _): items.append(.version(Self.record(id, members: members)))
                case .pruned(let id): items.append(.pruned(id))
                }
            }
            self.items = items
        } catch {
            items = []
            failure = error.failureMessage
        }
    }

    private static func record(_ id: VersionID, members: [String: JSONValue]) -> Record {
        var parents: [VersionID] = []
        if case .array(let values)? = members["parents"] {
            for case .string(let parent) in values { parents.append(parent) }
        }
        var tree: ObjectDigest?
        if case .string(let hex)? = members["tree"] { tree = ObjectDigest(hex: hex) }
        var signature = SignatureCheck.none
        if let value = members["signature"] {
            if let decoded = try? JSONValueDecoder().decode(VersionSignature.self, from: value) {
                signature = decoded.signer(ofVersion: id) == nil ? .invalid : .valid
            } else {
                signature = .malformed
            }
        }
        return Record(
            id: id, parents: parents, recordFormat: members["number"] == nil ? 2 : 1, tree: tree,
            unknownMembers: ValidationPass.unknownMembers(ofRecord: .object(members)), signature: signature)
    }
}

extension HistorySegment.ObjectItem {
    /// An object item without its bytes: what `validate` checks of it after reading it.
    struct Summary: Sendable {
        var digest: ObjectDigest
        var record: ObjectRecord
        var isInEntry: Bool
        var foundByPlace: Bool
    }

    var summary: Summary {
        let isInEntry = if case .entry = storage { true } else { false }
        return Summary(digest: digest, record: record, isInEntry: isInEntry, foundByPlace: foundByPlace)
    }
}
