import DocumentKitCore

/// The archive formats DocumentKit exports to through ``ArchiveWriter``.
package enum ArchiveWriteFormat: String, CaseIterable, Sendable {
    /// A zip file; each entry deflated or stored (``EntryCompression``).
    case zip
    /// An uncompressed tar in the restricted pax format: ustar headers, with pax extended
    /// headers only where ustar cannot hold a value (long or non-ASCII names, large sizes).
    case tar
    /// A restricted pax tar compressed with gzip, without a timestamp in the gzip header.
    case tarGzip = "tar.gz"
    /// A restricted pax tar compressed with zstd at its default level.
    case tarZstd = "tar.zst"
    /// A restricted pax tar compressed with xz.
    case tarXz = "tar.xz"

    /// The usual file name extension, without the leading dot (the raw value).
    package var fileExtension: String { rawValue }
}
