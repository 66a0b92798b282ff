import DocumentKitArchive
import DocumentKitCore
import DocumentKitJSON
import Foundation

extension ObjectDelta {
    /// Runs `program` against `base`, rebuilding the target of exactly `expectedSize` bytes.
    ///
    /// The output buffer is allocated once, at `expectedSize`, after the program's declared
    /// sizes agree with the base and with `expectedSize`; no instruction can make it grow,
    /// so a hostile program costs at most what the caller expects.
    ///
    /// - Throws: `DocumentKitError` `.malformedInput` when the program does not start with
    ///   `DKD1`, a varint is truncated or too large, the declared base size is not
    ///   `base.count` or the target size not `expectedSize`, an instruction is unknown, has
    ///   a zero length, copies outside the base, reads literal bytes past the program's
    ///   end or writes past the target's end, the program ends before the target is
    ///   complete, or bytes follow once it is.
    package static func apply(_ program: Data, to base: Data, expectedSize: Int) throws -> Data {
        try DeltaInstructions(program: program, baseSize: base.count, expectedSize: expectedSize).apply(to: base)
    }
}

extension DeltaInstructions {
    /// Reads `program`, a program for a base of `baseSize` bytes that must build
    /// `expectedSize` bytes, checking everything ``ObjectDelta/apply(_:to:expectedSize:)``
    /// promises to check.
    package init(program: Data, baseSize: Int, expectedSize: Int) throws {
        guard expectedSize >= 0 else {
            throw DeltaProgramReader.failure("a negative target size (\(expectedSize)) was expected")
        }
        self.init(baseSize: baseSize, targetSize: expectedSize)
        try program.withUnsafeBytes { bytes in
            var reader = DeltaProgramReader(bytes)
            try reader.readMagic()
            let declaredBase = try reader.varint(naming: "the base size")
            guard declaredBase == baseSize else {
                throw DeltaProgramReader.failure(
                    "the program is for a base of \(declaredBase) bytes; the base has \(baseSize)")
            }
            let targetSize = try reader.varint(naming: "the target size")
            guard targetSize == expectedSize else {
                throw DeltaProgramReader.failure(
                    "the program builds \(targetSize) bytes; \(expectedSize) were expected")
            }
            try read(&reader)
        }
    }

    /// Reads the instructions after the header, up to a complete target, keeping the
    /// ADDs' bytes in `literals`.
    private mutating func read(_ reader: inout DeltaProgramReader) throws {
        var filled = 0
        while !reader.isAtEnd {
            let start = reader.position
            guard filled < targetSize else {
                throw DeltaProgramReader.failure(
                    "trailing bytes at byte \(start), after the instruction that completes the target")
            }
            let byte = reader.readByte()
            switch ObjectDelta.Opcode(rawValue: byte) {
            case .copy:
                let offset = try reader.varint(naming: "a COPY offset")
                let length = try reader.varint(naming: "a COPY length")
                try Self.checkLength(length, of: "COPY", at: start, filled: filled, targetSize: targetSize)
                guard offset <= baseSize, length <= baseSize - offset else {
                    throw DeltaProgramReader.failure(
                        "the COPY at byte \(start) reads \(length) bytes from offset \(offset) of a base of \(baseSize)"
                    )
                }
                append(Piece(start: filled, length: length, offset: offset, fromBase: true))
                filled += length
            case .add:
                let length = try reader.varint(naming: "an ADD length")
                try Self.checkLength(length, of: "ADD", at: start, filled: filled, targetSize: targetSize)
                let literal = try reader.readRange(length, forTheADDAt: start)
                append(Piece(start: filled, length: length, offset: literals.count, fromBase: false))
                literals.append(contentsOf: UnsafeRawBufferPointer(rebasing: reader.bytes[literal]))
                filled += length
            case nil:
                let hex = String(byte, radix: 16, uppercase: true)
                throw DeltaProgramReader.failure(
                    "unknown instruction 0x\(hex.count == 1 ? "0" + hex : hex) at byte \(start)")
            }
        }
        guard filled == targetSize else {
            throw DeltaProgramReader.failure("the program ends after \(filled) of the target's \(targetSize) bytes")
        }
    }

    /// Refuses an empty instruction, or one that would write past the end of the target.
    private static func checkLength(_ length: Int, of instruction: String, at start: Int, filled: Int, targetSize: Int)
        throws
    {
        guard length > 0 else { throw DeltaProgramReader.failure("the \(instruction) at byte \(start) has length 0") }
        guard length <= targetSize - filled else {
            throw DeltaProgramReader.failure(
                """
                the \(instruction) at byte \(start) writes \(length) bytes after \(filled); the target has \
                \(targetSize)
                """
            )
        }
    }
}

/// Reads a delta program's bytes front to back, with errors that say at which byte.
private struct DeltaProgramReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }
    var remaining: Int { bytes.count - position }

    mutating func readMagic() throws {
        guard bytes.count >= ObjectDelta.magic.count,
            bytes.prefix(ObjectDelta.magic.count).elementsEqual(ObjectDelta.magic)
        else {
            throw Self.failure("not a delta program: it does not start with DKD1")
        }
        position = ObjectDelta.magic.count
    }

    /// The next byte; the caller has checked that there is one.
    mutating func readByte() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }

    /// Where the next `count` bytes, the literal of the ADD at byte `start`, are in the
    /// program; skips them. (The message is made only on failure: a program holds tens of
    /// thousands of ADDs.)
    mutating func readRange(_ count: Int, forTheADDAt start: Int) throws -> Range<Int> {
        guard count <= remaining else {
            throw Self.failure(
                "the ADD at byte \(start) needs \(count) literal bytes; the program has \(remaining) left")
        }
        defer { position += count }
        return position..<position + count
    }

    /// An unsigned LEB128 varint of at most nine bytes (63 bits), so that it fits in `Int`.
    mutating func varint(naming what: String) throws -> Int {
        let start = position
        var value = 0
        var shift = 0
        while true {
            guard position < bytes.count else { throw Self.failure("\(what) (a varint at byte \(start)) is truncated") }
            guard shift < 63 else {
                throw Self.failure("\(what) (a varint at byte \(start)) is longer than nine bytes")
            }
            let byte = bytes[position]
            position += 1
            value |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    static func failure(_ message: String) -> DocumentKitError {
        DocumentKitError(.malformedInput, "invalid delta program: \(message)")
    }
}
