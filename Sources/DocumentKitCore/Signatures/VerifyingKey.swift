import Crypto
import Foundation

/// The public half of a ``SigningKey``: what verifies its signatures, written as one line
/// of text, `documentkit-ed25519 BASE64`, to give to others.
public struct VerifyingKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's 32 bytes (RFC 8032).
    public let rawRepresentation: Data

    package init(_ key: Curve25519.Signing.PublicKey) { rawRepresentation = key.rawRepresentation }

    /// The word every key's text begins with.
    public static let kind = "documentkit-ed25519"

    /// Reads the key's text form, `documentkit-ed25519 BASE64`; `nil` when it is not one.
    ///
    /// One spelling only (FORMAT.md §5.4): the kind, one space, and the 32 bytes in
    /// standard base64 with padding, exactly as ``description`` writes them. Text that
    /// decodes to the same bytes but is spelled otherwise (two spaces, a trailing space,
    /// unused bits set in the last base64 digit) is no key, so that a reader comparing
    /// key texts byte for byte and one comparing keys agree on every record.
    public init?(text: String) {
        let prefix = Self.kind + " "
        guard text.hasPrefix(prefix), let raw = Data(base64Encoded: String(text.dropFirst(prefix.count))),
            raw.base64EncodedString() == text.dropFirst(prefix.count),
            (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil
        else { return nil }
        rawRepresentation = raw
    }

    public var description: String { "\(Self.kind) \(rawRepresentation.base64EncodedString())" }

    /// A short name for the key, for listings: `SHA256:` and the first 16 hex digits of
    /// the SHA-256 of its bytes.
    public var fingerprint: String { "SHA256:\(ObjectDigest.of(rawRepresentation).hex.prefix(16))" }

    /// Whether `signature` is this key's signature of version `id`.
    public func isValidSignature(_ signature: Data, ofVersion id: String) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: rawRepresentation) else { return false }
        return key.isValidSignature(signature, for: Data(SigningKey.signedText(of: id).utf8))
    }
}
