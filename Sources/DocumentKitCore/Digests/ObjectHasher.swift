import Crypto
import Foundation

/// Computes an `ObjectDigest` from bytes fed in blocks.
package struct ObjectHasher {
    private var hasher = SHA256()
    package private(set) var byteCount: UInt64 = 0

    package init() {}

    package mutating func update(_ buffer: UnsafeRawBufferPointer) {
        WorkMeter.count(.hashedBytes, buffer.count)
        hasher.update(bufferPointer: buffer)
        byteCount += UInt64(buffer.count)
    }

    package mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    package func finalize() -> ObjectDigest {
        ObjectDigest(hasher.finalize())
    }
}
