import Crypto
import Foundation

/// The SHA-256 of an object's uncompressed bytes: its name inside a bundle.
///
/// Written as 64 lowercase hexadecimal digits everywhere: in the manifest, in tree
/// objects, in blob references and in entry names (`objects/ab/cdef…`).
public struct ObjectDigest: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The 64 lowercase hexadecimal digits.
    public let hex: String

    /// Parses 64 lowercase hexadecimal digits; `nil` for anything else.
    public init?(hex: String) {
        // Through the text's contiguous bytes: a walk of its `utf8` view, a character a
        // step, was a twentieth of what `validate` spent reading a long history.
        var text = hex
        guard text.withUTF8({ Self.areDigits(UnsafeRawBufferPointer($0)) }) else { return nil }
        self.hex = text
    }

    /// Parses 64 lowercase hexadecimal digits from raw bytes (a history segment's item);
    /// `nil` for anything else. One pass over the bytes, no text decoded first.
    package init?(hexBytes bytes: UnsafeRawBufferPointer) {
        guard Self.areDigits(bytes) else { return nil }
        self.hex = String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `bytes` are 64 lowercase hexadecimal digits.
    private static func areDigits(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count == 64 && bytes.allSatisfy { ($0 &- 0x30) < 10 || ($0 &- 0x61) < 6 }
    }

    package init(_ digest: SHA256.Digest) {
        self.hex = HexText.lowercase(digest)
    }

    /// The digest of `data`.
    public static func of(_ data: Data) -> ObjectDigest {
        WorkMeter.count(.hashedBytes, data.count)
        return ObjectDigest(SHA256.hash(data: data))
    }

    /// The zip entry that holds this object: `objects/` + two digits + `/` + the rest.
    public var entryName: String {
        "objects/\(hex.prefix(2))/\(hex.dropFirst(2))"
    }

    /// The first twelve digits, enough to name an object to a person.
    public var short: String { String(hex.prefix(12)) }

    public var description: String { hex }

    public static func < (lhs: ObjectDigest, rhs: ObjectDigest) -> Bool { lhs.hex < rhs.hex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let digest = ObjectDigest(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a SHA-256 digest (64 lowercase hex digits)")
        }
        self = digest
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
