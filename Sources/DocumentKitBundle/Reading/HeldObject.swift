import DocumentKitCore
import Foundation

/// An object's bytes that a reader already holds, checked against its digest: where a
/// delta chain may stop (``DocumentBundle/objectData(_:reaching:)``).
package struct HeldObject {
    package let digest: ObjectDigest
    package let data: Data

    package init(digest: ObjectDigest, data: Data) {
        self.digest = digest
        self.data = data
    }
}
