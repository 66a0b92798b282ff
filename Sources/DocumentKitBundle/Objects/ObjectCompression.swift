import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// How a save stores the objects it adds: `compression` in `docctl config`, or per save
/// through ``SaveMetadata/compression``.
///
/// It applies to new objects only: objects the bundle already has are copied as they are
/// stored, whatever their codec, and an old document is still stored as a delta of the
/// new one (a delta is a zstd frame by definition, FORMAT.md §4), since that is how a
/// history stays cheap rather than a choice of compression.
public enum ObjectCompression: String, CaseIterable, Codable, Sendable {
    /// zstd for objects of 128 bytes to 16 MiB, kept for an object only when it saves a
    /// tenth of its size; the rest stored as they are. The default.
    case zstd
    /// New objects stored as they are (codec `identity`): readable with `unzip -p` alone.
    case none
}
