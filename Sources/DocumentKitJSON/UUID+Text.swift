import DocumentKitCore
import Foundation

extension UUID {
    /// The UUID `text` spells (`6F9619FF-8B86-D011-B42D-00C04FC964FF`, either case), read
    /// digit by digit: `UUID(uuidString:)` goes through `sscanf`, which made reading the
    /// ids of 20,000 records cost more than parsing them.
    package init?(text: String) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed: Bool =
            text.utf8.withContiguousStorageIfAvailable { utf8 in
                guard utf8.count == 36 else { return false }
                return withUnsafeMutableBytes(of: &bytes) { output in
                    var input = 0
                    for index in 0..<16 {
                        if input == 8 || input == 13 || input == 18 || input == 23 {
                            guard utf8[input] == UInt8(ascii: "-") else { return false }
                            input += 1
                        }
                        guard let high = Self.hexValue(utf8[input]), let low = Self.hexValue(utf8[input + 1]) else {
                            return false
                        }
                        output[index] = high << 4 | low
                        input += 2
                    }
                    return true
                }
            } ?? false
        guard parsed else {
            guard let uuid = UUID(uuidString: text) else { return nil }
            self = uuid
            return
        }
        self.init(uuid: bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension UUID {
    /// The canonical text (`6F9619FF-8B86-D011-B42D-00C04FC964FF`, upper case), as
    /// `uuidString` spells it, written digit by digit rather than through `sprintf`.
    package var text: String {
        let digits = Array("0123456789ABCDEF".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { output in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        output[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    output[position] = digits[Int(byte >> 4)]
                    output[position + 1] = digits[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}

extension KeyedDecodingContainer {
    /// The UUID at `key`, read as `UUID(from:)` reads one (a string, the same error for one
    /// that is not a UUID), but without Foundation's `sscanf`: 20,000 tasks hold 40,000.
    public func decodeUUID(forKey key: Key) throws -> UUID {
        try Self.uuid(try decode(String.self, forKey: key), at: codingPath + [key])
    }

    /// The UUID at `key`, or `nil` when there is none (or it is `null`).
    public func decodeUUIDIfPresent(forKey key: Key) throws -> UUID? {
        try decodeIfPresent(String.self, forKey: key).map { try Self.uuid($0, at: codingPath + [key]) }
    }

    /// The UUIDs of the array at `key`, or `nil` when there is none.
    public func decodeUUIDsIfPresent(forKey key: Key) throws -> [UUID]? {
        try decodeIfPresent([String].self, forKey: key).map { texts in
            try texts.enumerated().map {
                try Self.uuid($0.element, at: codingPath + [key, AnyCodingKey(intValue: $0.offset)])
            }
        }
    }

    private static func uuid(_ text: String, at path: [any CodingKey]) throws -> UUID {
        guard let uuid = UUID(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: "Attempted to decode UUID from invalid UUID string."))
        }
        return uuid
    }
}
