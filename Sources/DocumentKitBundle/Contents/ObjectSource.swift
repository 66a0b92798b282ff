import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// Where the contents of files read from a bundle come from.
public protocol ObjectSource: AnyObject {
    /// The object's bytes, decoded and checked against its digest.
    func objectData(_ digest: ObjectDigest) throws -> Data
    /// The object's bytes in blocks, checked against its digest at the end.
    func streamObject(_ digest: ObjectDigest, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
}
