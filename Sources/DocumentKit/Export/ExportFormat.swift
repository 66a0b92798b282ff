import Foundation

/// The forms a version can be exported to.
public enum ExportFormat: String, CaseIterable, Codable, Sendable {
    /// A zip of the version's files (`document.json`, `blobs/…`).
    case zip
    /// A POSIX pax tar of the files.
    case tar
    /// The tar, gzip-compressed.
    case tarGzip = "tar.gz"
    /// The tar, zstd-compressed.
    case tarZstd = "tar.zst"
    /// The files in a new folder.
    case dir
    /// The document JSON alone.
    case json
    /// A BagIt bag (RFC 8493), a folder: the files under `data/`, with checksum manifests.
    case bagit
    /// An access copy: a static site showing the document, its files and its history,
    /// which any browser opens from a folder (or from the zip it is written as when the
    /// output's name ends in `.zip`) without the software, a server or a network.
    case html
}
