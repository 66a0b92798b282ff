import Crypto
import DocumentKitStore
import Foundation

/// A bundle file read through a tap that takes its SHA-512 (OCFL's digest) as its bytes go
/// by: a push learns the digest of each file it sends in the one read that sends it,
/// instead of reading every new file twice, once to hash and once to send (issue 24).
///
/// The digest is kept only once a read ran to its end and the store checked the bytes
/// against their SHA-256; a read cut short leaves it unknown.
final class OCFLDigestTap: ObjectSource {
    private let source: any ObjectSource
    private let digest: ObjectDigest
    private let size: UInt64
    /// The SHA-512 of the bytes, as lowercase hex, once a read of them has ended whole.
    private(set) var sha512: String?

    /// A tap on `file`, or `nil` when `file` is not an object of a bundle (its digest is
    /// then taken by reading it, as it is small or in memory).
    init?(_ file: FileWrapper) {
        guard case .object(let digest, let size, let store) = file.contents else { return nil }
        (source, self.digest, self.size) = (store, digest, size)
    }

    /// The file to hand to the remote in place of the bundle's: its reads go through the tap.
    var file: FileWrapper { FileWrapper(object: digest, size: size, store: self) }

    func objectData(_ digest: ObjectDigest) throws -> Data {
        let data = try source.objectData(digest)
        sha512 = OCFLInventory.sha512(data)
        return data
    }

    func streamObject(_ digest: ObjectDigest, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var hasher = SHA512()
        try source.streamObject(digest) { block in
            hasher.update(bufferPointer: block)
            try body(block)
        }
        sha512 = OCFLInventory.hex(hasher.finalize())
    }
}
