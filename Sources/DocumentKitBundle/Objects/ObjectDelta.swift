import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

/// A byte delta codec: a short program that rebuilds one object (the target) from another
/// (its base), for storing a new version of a large object as what changed.
///
/// A 5 MB document in which one task changed encodes to a program of a few dozen bytes
/// (COPY the start of the base, ADD the new title, COPY the rest). The format is
/// FORMAT.md §4.1: the magic `DKD1`, the base and target sizes, then COPY and ADD
/// instructions. Programs are not compressed here; callers compress them with zstd,
/// which shrinks the literal bytes of ADD instructions.
///
/// ```swift
/// let program = ObjectDelta.encode(target: newDocument, base: oldDocument)
/// let rebuilt = try ObjectDelta.apply(program, to: oldDocument, expectedSize: newDocument.count)
/// ```
package enum ObjectDelta {
    /// How many bytes longer than its target a stored program may be (FORMAT.md §4.1):
    /// bounds what a reader decompresses, since a program's own size is not recorded.
    /// Writers store a delta only when it is far smaller than the object anyway.
    package static let maxOverhead = 64

    /// The first four bytes of every program: `DKD1`.
    package static let magic: [UInt8] = Array("DKD1".utf8)

    /// The instructions of a program, by their opcode byte.
    package enum Opcode: UInt8 {
        /// `0x01 offset length`: append `base[offset ..< offset + length]`.
        case copy = 0x01
        /// `0x02 length bytes…`: append the `length` bytes that follow.
        case add = 0x02
    }

    /// Appends `value` as an unsigned LEB128 varint: seven bits per byte, least
    /// significant first, the high bit set on every byte but the last.
    package static func appendVarint(_ value: Int, to program: inout [UInt8]) {
        var rest = UInt64(value)
        while rest >= 0x80 {
            program.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        program.append(UInt8(rest))
    }
}
