import Foundation

extension BundleImporter {
    /// Imports what the open `descriptor` (standard input, a pipe) holds, an archive or a
    /// JSON document told apart by their first bytes, into a new bundle at `output`, as
    /// ``importDocument(from:to:type:schema:metadata:replace:)`` imports a file. Messages
    /// name the stream `name`.
    ///
    /// The stream is first kept in a private file beside `output` (``SpooledInput``): a zip
    /// is read from its end, and a stream cannot be read twice. The file is removed after.
    public static func importDocument(
        fromFileDescriptor descriptor: Int32, named name: String = "standard input", to output: URL,
        type: any CodableDocument.Type, schema: String? = nil, metadata: SaveMetadata,
        replace: Bool = false
    ) throws -> BundleVersion {
        try AtomicReplacement.refuseExisting(output, replace: replace)
        let spooled = try SpooledInput(reading: descriptor, named: "standard-input", beside: output, source: name)
        do {
            return try importDocument(
                from: spooled.url, to: output, type: type, schema: schema, metadata: metadata, replace: replace)
        } catch var error as DocumentKitError {
            // The spooled file is the stream: say so, not where it was kept.
            if error.path == spooled.url.path || error.path == spooled.url.relativePath { error.path = name }
            throw error
        }
    }
}
