import DocumentKitCore
import Foundation

/// One history segment of a format-3 bundle (FORMAT.md §12.2): version records,
/// pruned ids and small objects, as items in blocks of at most 64 KiB that are each one
/// zstd frame, then an index of fixed-width rows and a trailer. A reader finds a version
/// by its place or an object by its digest from the index alone, and decodes one block.
package enum HistorySegment {
    /// The first four bytes of a segment.
    static let magic: [UInt8] = Array("DKH1".utf8)
    /// The first four bytes of its trailer.
    static let trailerMagic: [UInt8] = Array("DKHT".utf8)
    /// The trailer's length in bytes.
    static let trailerSize = 48
    /// The most bytes a block decodes to, unless one item alone is larger.
    package static let blockSize = 1 << 16
    /// The length of one row of the version and object tables, and of the block table.
    static let rowSize = 16

    /// What a segment holds, in the order of the versions it belongs to.
    package enum Item: Equatable, Sendable {
        /// A version record: its canonical JSON without `id`, which its record text gives
        /// (FORMAT.md §5): 32 random bytes a version that need not be stored.
        case version(id: VersionID, record: Data)
        /// An object.
        case object(ObjectItem)
        /// The id of a pruned version.
        case pruned(VersionID)
    }

    /// An object as a segment holds it.
    package struct ObjectItem: Equatable, Sendable {
        package enum Storage: Equatable, Sendable {
            /// The object's bytes, in the block.
            case identity(Data)
            /// A delta program (FORMAT.md §4.1) that rebuilds it from `base`, in the block.
            case delta(base: ObjectDigest, program: Data)
            /// Stored alone in the entry `objects/…`, as format 2 stores it.
            case entry(codec: ObjectCodec, storedSize: UInt64, base: ObjectDigest?)
        }

        package var digest: ObjectDigest
        /// The object's length in bytes.
        package var size: UInt64
        package var storage: Storage
        /// Whether it is found by its place rather than by the index: a version's root
        /// tree, the item just before its record. Stored without its digest (the digest
        /// of its bytes), so only an `identity` object can be.
        package var foundByPlace: Bool

        package init(digest: ObjectDigest, size: UInt64, storage: Storage, foundByPlace: Bool = false) {
            precondition(
                !foundByPlace || { if case .identity = storage { true } else { false } }(),
                "only an identity object is found by place")
            self.digest = digest
            self.size = size
            self.storage = storage
            self.foundByPlace = foundByPlace
        }
    }

    /// Where an item is: its block, and its offset in the decoded block.
    struct Location: Hashable {
        var block: UInt32
        var offset: UInt32
    }

    /// The item kind bytes.
    enum Kind: UInt8 {
        case version = 0x56  // V
        case object = 0x4F  // O
        case pruned = 0x50  // P
    }

    /// The storage bytes of an object item.
    enum StorageCode: UInt8 {
        case identity = 0x69  // i
        case delta = 0x64  // d
        case entry = 0x65  // e
        case zstd = 0x7A  // z
        /// Leads an object found by place: its bytes follow, and its digest is theirs.
        case hashed = 0x68  // h
    }

    /// The first eight bytes of a digest or id (64 hex digits), as the index keys them.
    static func prefix(ofHex hex: String) -> UInt64 {
        var value: UInt64 = 0
        for byte in hex.utf8.prefix(16) {
            let digit: UInt8 = byte <= 0x39 ? byte - 0x30 : byte - 0x61 + 10
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// What a record says for a tree that is the item before it.
    static let treeBefore = Array(#""tree":"^""#.utf8)

    /// `record` with its `"tree":"…"` member (compact JSON) naming `tree` written as
    /// `"tree":"^"`; `nil` when it names another tree.
    static func abbreviatingTree(in record: Data, as tree: ObjectDigest) -> [UInt8]? {
        guard let range = ByteSearch.firstRange(of: Array(#""tree":"\#(tree.hex)""#.utf8), in: record) else {
            return nil
        }
        var bytes = record
        bytes.replaceSubrange(range, with: treeBefore)
        return Array(bytes)
    }

    /// `record` as it was given, with `"tree":"^"` naming `tree` again; as it is when it
    /// has no `^`.
    static func expandingTree(in record: Data, as tree: ObjectDigest?) throws -> Data {
        guard let range = ByteSearch.firstRange(of: treeBefore, in: record) else { return record }
        guard let tree else { throw failure("a record names the tree before it, and no object is before it") }
        var bytes = record
        bytes.replaceSubrange(range, with: Data(#""tree":"\#(tree.hex)""#.utf8))
        return bytes
    }

    package static func failure(_ message: String) -> DocumentKitError {
        DocumentKitError(.malformedInput, "invalid history segment: \(message)")
    }
}
