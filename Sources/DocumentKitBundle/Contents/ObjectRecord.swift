import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// How one object is stored: its size, the codec applied before storing, the stored size.
public struct ObjectRecord: Codable, Sendable, Equatable {
    /// The object's size in bytes, uncompressed (the bytes its digest is of).
    public var size: UInt64
    /// How the stored bytes encode the object.
    public var codec: ObjectCodec
    /// The size of the zip entry's data.
    public var storedSize: UInt64
    /// For the `delta` codec: the object the delta program rebuilds this one from.
    public var base: ObjectDigest?

    public init(size: UInt64, codec: ObjectCodec, storedSize: UInt64, base: ObjectDigest? = nil) {
        self.size = size
        self.codec = codec
        self.storedSize = storedSize
        self.base = base
    }
}
