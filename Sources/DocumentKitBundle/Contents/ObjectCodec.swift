import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// The encodings an object's stored bytes may have.
public enum ObjectCodec: String, Codable, Sendable {
    /// The stored bytes are the object.
    case identity
    /// The stored bytes are one zstd frame (RFC 8878) that decodes to the object.
    case zstd
    /// The stored bytes are one zstd frame that decodes to a delta program (FORMAT.md
    /// §4.1), which rebuilds the object from the object named by the record's `base`.
    case delta
}
