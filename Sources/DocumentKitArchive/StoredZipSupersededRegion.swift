import DocumentKitCore

/// What one save in place superseded: the entries the old central directory listed and the
/// new one does not, and the old central directory with its end records.
package struct StoredZipSupersededRegion: Equatable {
    /// The superseded entries, as the old central directory described them.
    package var entries: [StoredZipEntry]
    /// The old central directory and end records: from the old directory's offset to the
    /// old end of the zip, where the save's appended bytes begin.
    package var directory: Range<UInt64>

    package init(entries: [StoredZipEntry], directory: Range<UInt64>) {
        self.entries = entries
        self.directory = directory
    }
}
