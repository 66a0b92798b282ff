import DocumentKitCore

/// A record in a zip's unused bytes that a reader walking local headers from the start of
/// the file would take for part of the live zip.
package enum StoredZipStaleRecord: Equatable, Sendable {
    /// A local header whose name is not in `.stale/`: such a reader would take its data
    /// for that entry's.
    case entry(name: String, offset: UInt64)
    /// A central directory record: such a reader stops there, before the entries after it.
    case directory(offset: UInt64)
}
