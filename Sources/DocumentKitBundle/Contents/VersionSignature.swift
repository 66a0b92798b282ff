import DocumentKitCore
import Foundation

/// A version's signature (FORMAT.md §5.4): the signer's public key and its Ed25519
/// signature of the version's id. It is a member of the version's record but not of its
/// record text, so signing changes no id, and a version keeps its id whoever signs it.
public struct VersionSignature: Codable, Sendable, Equatable {
    /// The signer's key, in its text form (`documentkit-ed25519 BASE64`).
    public var key: String
    /// The 64-byte signature of ``SigningKey/signedText(of:)`` for the version's id, base64.
    public var value: String

    private enum CodingKeys: String, CodingKey, CaseIterable { case key, value }

    /// The members a signature has; a validator refuses any other.
    package static let memberNames = Set(CodingKeys.allCases.map(\.rawValue))

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// Signs the version `id` with `signingKey`.
    public init(signing id: VersionID, with signingKey: SigningKey) throws {
        key = signingKey.publicKey.description
        value = try signingKey.signature(ofVersion: id).base64EncodedString()
    }

    /// The signer's key, when this signature holds for version `id`: its key is a key, its
    /// value a signature, and the signature that key's of `id`. `nil` otherwise.
    ///
    /// Both texts have one spelling (``VerifyingKey/init(text:)``; the value in standard
    /// base64 with padding, as written): a record whose key or value decodes to the right
    /// bytes but is spelled otherwise was altered, and its signature does not hold.
    public func signer(ofVersion id: VersionID) -> VerifyingKey? {
        guard let signer = VerifyingKey(text: key), let signature = Data(base64Encoded: value), signature.count == 64,
            signature.base64EncodedString() == value, signer.isValidSignature(signature, ofVersion: id)
        else { return nil }
        return signer
    }
}
