import Crypto
import Foundation

/// The public half of a ``SigningKey``: what verifies its signatures, written as one line
/// of text, `documentkit-ed25519 BASE64`, to give to others.
public struct SignerKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's 32 bytes (RFC 8032).
    public let rawRepresentation: Data

    package init(_ key: Curve25519.Signing.PublicKey) { rawRepresentation = key.rawRepresentation }

    private static let kind = "documentkit-ed25519"

    /// Reads the key's text form, `documentkit-ed25519 BASE64`; `nil` when it is not one.
    public init?(text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 2, words[0] == Self.kind, let raw = Data(base64Encoded: String(words[1])),
              (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil else { return nil }
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
