import DocumentKitCore

/// How ``ArchiveWriter`` stores one zip entry's data; tar formats ignore it.
package enum EntryCompression: Sendable {
    /// Stored as is (compression method 0): for data that is compressed already.
    case store
    /// Deflated (compression method 8).
    case deflate
}
