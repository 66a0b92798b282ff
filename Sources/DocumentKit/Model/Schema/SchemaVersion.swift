import Foundation

/// The version of a document type's schema: `major.minor.patch`, as in Semantic
/// Versioning, ordered by its numbers (`2.0.0` < `10.0.0`), like SwiftData's
/// `Schema.Version`.
///
/// Every version of a bundle records the schema its document was written with (FORMAT.md
/// §5). Parsing is strict, because a stored schema decides how a document is read: three
/// decimal numbers separated by dots, without signs, spaces, leading zeros or suffixes.
///
/// ```swift
/// let version = SchemaVersion(2, 0, 0)
/// SchemaVersion("2.0.0") == version      // true
/// SchemaVersion("2.0") == nil            // true: all three numbers are required
/// ```
public struct SchemaVersion: Hashable, Comparable, Sendable, LosslessStringConvertible, Codable {
    /// Incremented for changes an older reader cannot read.
    public let major: Int
    /// Incremented for additions.
    public let minor: Int
    /// Incremented for fixes.
    public let patch: Int

    /// A version from its three numbers, none negative.
    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        precondition(major >= 0 && minor >= 0 && patch >= 0, "a schema version's numbers are not negative")
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `1.0.0`; `nil` for anything else (`1.0`, `v1.0.0`, `01.0.0`, `1.0.0-beta`, ` 1.0.0`).
    public init?(_ description: String) {
        let parts = description.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            // Digits only (no sign, no space), no leading zero, and small enough for an Int.
            guard !part.isEmpty, part.count <= 9, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                part == "0" || part.first != "0", let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        self.init(numbers[0], numbers[1], numbers[2])
    }

    /// `1.0.0`.
    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (lhs: SchemaVersion, rhs: SchemaVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// Decodes the string form, refusing what `init?(_:)` refuses.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = SchemaVersion(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a schema version (use major.minor.patch, e.g. 1.0.0)"
            )
        }
        self = version
    }

    /// Encodes the string form, `1.0.0`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
