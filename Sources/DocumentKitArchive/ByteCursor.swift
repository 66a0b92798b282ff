import DocumentKitCore

/// Reads little-endian integers and byte runs from a buffer read out of a file,
/// checking every access against the buffer's end.
///
/// Archive parsers run on hostile input: a length field may point anywhere. A cursor
/// never traps; running past the end throws ``EndOfData``, which the parser turns into
/// an ``ArchiveError`` that names the record.
package struct ByteCursor {
    /// Thrown when a read would go past the end of the bytes.
    package struct EndOfData: Error {}

    /// The bytes being read.
    package let bytes: [UInt8]
    /// The index of the next byte to read.
    package private(set) var position: Int

    /// A cursor over `bytes`, starting at `position`.
    package init(_ bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Bytes left to read.
    package var remaining: Int { bytes.count - position }

    /// Reads a 16-bit little-endian integer.
    package mutating func uint16() throws(EndOfData) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(byteCount: 2))
    }

    /// Reads a 32-bit little-endian integer.
    package mutating func uint32() throws(EndOfData) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(byteCount: 4))
    }

    /// Reads a 64-bit little-endian integer.
    package mutating func uint64() throws(EndOfData) -> UInt64 {
        try integer(byteCount: 8)
    }

    /// Reads the next `count` bytes.
    package mutating func bytes(_ count: Int) throws(EndOfData) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw EndOfData() }
        defer { position += count }
        return bytes[position..<position + count]
    }

    /// Skips `count` bytes.
    package mutating func skip(_ count: Int) throws(EndOfData) {
        guard count >= 0, count <= remaining else { throw EndOfData() }
        position += count
    }

    /// The 16-bit little-endian integer at `index` in `bytes`, or `nil` past the end.
    package static func uint16(_ bytes: [UInt8], at index: Int) -> UInt16? {
        var cursor = ByteCursor(bytes, position: index)
        return try? cursor.uint16()
    }

    /// The 32-bit little-endian integer at `index` in `bytes`, or `nil` past the end.
    package static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32? {
        var cursor = ByteCursor(bytes, position: index)
        return try? cursor.uint32()
    }

    private mutating func integer(byteCount: Int) throws(EndOfData) -> UInt64 {
        guard position >= 0, byteCount <= remaining else { throw EndOfData() }
        var value: UInt64 = 0
        for index in 0..<byteCount {
            value |= UInt64(bytes[position + index]) << (8 * index)
        }
        position += byteCount
        return value
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` in little-endian byte order.
    package mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// Appends `value` in little-endian byte order.
    package mutating func appendLittleEndian(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// Appends `value` in little-endian byte order.
    package mutating func appendLittleEndian(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// Overwrites four bytes at `index` with `value` in little-endian byte order.
    package mutating func storeLittleEndian(_ value: UInt32, at index: Int) {
        for byte in 0..<4 { self[index + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
    }
}
