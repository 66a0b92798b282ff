import Foundation

/// `documentkit/version.json`, a file of every OCFL version DocumentKit writes: the bundle
/// version's whole record, which OCFL's version block cannot hold (its id, parents, schema,
/// tree, writer, format-1 number, changes and signature), and the bundle's content type,
/// so that an import rebuilds the record, and so the id, exactly (FORMAT.md §10).
struct OCFLVersionRecord: Codable {
    /// Always ``OCFLVersionRecord/formatName``.
    var format: String
    /// 1.
    var formatVersion: Int
    /// The bundle's content type identifier (the manifest's `contentType`).
    var contentType: String
    /// The bundle's MIME type (its `mimetype` entry).
    var mimeType: String
    /// The version's record, as the bundle's manifest holds it.
    var version: BundleVersion

    static let formatName = "documentkit.ocfl-version"
    /// Its logical path in each OCFL version.
    static let path = "documentkit/version.json"

    init(contentType: String, mimeType: String, version: BundleVersion) {
        format = Self.formatName
        formatVersion = 1
        self.contentType = contentType
        self.mimeType = mimeType
        self.version = version
    }

    func encoded() throws -> Data {
        try CanonicalJSONEncoder().encode(self, terminated: true)
    }

    /// Reads one, refusing anything but a record whose id is the SHA-256 of its text.
    static func decode(_ data: Data, in version: String) throws -> OCFLVersionRecord {
        let record: OCFLVersionRecord
        do {
            record = try DocumentDates.decoder().decode(OCFLVersionRecord.self, from: data)
        } catch {
            throw DocumentKitError(.malformedInput, "\(path) is not a DocumentKit version record", location: version)
        }
        guard record.format == formatName, record.formatVersion == 1 else {
            throw DocumentKitError(
                .malformedInput, "\(path) is not a DocumentKit version record of format 1", location: version)
        }
        guard record.version.computeID() == record.version.id else {
            throw DocumentKitError(
                .malformedInput,
                "\(path): the record's id \(record.version.shortID) is not the SHA-256 of its record text",
                location: version)
        }
        return record
    }
}
