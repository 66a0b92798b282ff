import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension DocumentBundle {
    /// The bundle's state (its `state.json`) as this opened bundle holds it: key → value,
    /// empty when the bundle has none.
    ///
    /// Throws `malformedInput` naming the entry when `state.json` is not a JSON object or
    /// passes ``BundleLimits/maxStateBytes``. To read and write the state as it is on
    /// disk now, rather than as it was when this bundle was opened, use ``state``.
    public func storedState() throws -> [String: JSONValue] {
        try Self.state(in: zip, path: url.relativePath, limits: limits)
    }

    /// The state of the bundle at `url` as it is now. Reads the central directory, the
    /// manifest's format and `state.json`, and no more, so it costs the same however long
    /// the history; follows an in-place save's journal as every reader does.
    package static func currentState(of url: URL, limits: BundleLimits = .default) throws -> [String: JSONValue] {
        let container = try BundleFile(url: url, limits: limits)
        try container.checkManifestHeader(limits: limits)
        return try state(in: container.zip, path: container.path, limits: limits)
    }

    package static func state(in zip: StoredZipReader, path: String, limits: BundleLimits) throws -> [String: JSONValue]
    {
        guard let entry = zip.entry(named: BundleEntry.state) else { return [:] }
        return try DocumentKitError.located(at: path) {
            // Checked before reading, so that an oversize entry costs nothing to refuse.
            guard entry.size <= UInt64(limits.maxStateBytes) else {
                throw DocumentKitError(
                    .malformedInput, "\(BundleEntry.state) is larger than the limit of \(limits.maxStateBytes) bytes",
                    location: "entry '\(BundleEntry.state)'")
            }
            return try BundleStateEntry.decode(try zip.readData(entry), limits: limits)
        }
    }
}
