import Crypto
import DocumentKitBundle
import Foundation

/// A bundle file read through a tap that takes its SHA-512 (OCFL's digest) as its bytes go
/// by: a push learns the digest of each file it sends in the one read that sends it,
/// instead of reading every new file twice, once to hash and once to send (issue 24).
///
/// The digest is kept only once a read ran to its end and the store checked the bytes
/// against their SHA-256 (an entry's, against its CRC-32); a read cut short leaves it
/// unknown. An entry read through the tap was hashed a second time after it was sent
/// before: 1-2 s more for a first push of the bench bundle.
final class OCFLDigestTap: ObjectSource {
    private let source: (any ObjectSource)?
    private let digest: ObjectDigest?
    private let size: UInt64
    /// The bundle's entry, when the file is one.
    private let entry: FileWrapper?
    /// The SHA-512 of the bytes, as lowercase hex, once a read of them has ended whole.
    private(set) var sha512: String?

    /// A tap on `file`, an object of a bundle (checked against its SHA-256 as it is read)
    /// or an entry of one, stored bytes and all (checked against its CRC-32); `nil` for
    /// any other file, whose digest is taken by reading it, as it is small or in memory.
    init?(_ file: FileWrapper) {
        switch file.contents {
        case .object(let digest, let size, let store):
            (source, self.digest, self.size, entry) = (store, digest, size, nil)
        case .entry:
            (source, digest, size, entry) = (nil, nil, file.fileSize ?? 0, file)
        default:
            return nil
        }
    }

    /// The file to hand to the remote in place of the bundle's: its reads go through the tap.
    var file: FileWrapper {
        guard let entry else { return FileWrapper(object: digest!, size: size, store: self) }
        return FileWrapper(size: size) { [self] body in
            var hasher = SHA512()
            try entry.streamContents { block in
                hasher.update(bufferPointer: block)
                try body(block)
            }
            sha512 = OCFLInventory.hex(hasher.finalize())
        }
    }

    func objectData(_ digest: ObjectDigest) throws -> Data {
        let data = try source!.objectData(digest)
        sha512 = OCFLInventory.sha512(data)
        return data
    }

    func streamObject(_ digest: ObjectDigest, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var hasher = SHA512()
        try source!.streamObject(digest) { block in
            hasher.update(bufferPointer: block)
            try body(block)
        }
        sha512 = OCFLInventory.hex(hasher.finalize())
    }
}
