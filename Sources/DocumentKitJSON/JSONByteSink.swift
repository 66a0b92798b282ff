import DocumentKitCore
import Foundation

/// Where JSON text is written: an array for small pieces, or a `JSONOutputBuffer` for a
/// whole document.
package protocol JSONByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append<Bytes: Collection>(contentsOf bytes: Bytes) where Bytes.Element == UInt8
}
