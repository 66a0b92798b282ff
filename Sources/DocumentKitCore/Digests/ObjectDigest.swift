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
        guard hex.utf8.count == 64,
            hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.hex = hex
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
