import Foundation

/// The keys a user trusts, with the names to show for them: a text file in the spirit of
/// ssh's `allowed_signers`, one signer per line, `NAME documentkit-ed25519 BASE64`.
/// Blank lines and lines starting with `#` are skipped; a name may not contain spaces.
///
/// ```
/// # people whose versions I accept
/// ada@example.org documentkit-ed25519 R4n0…
/// ```
public struct TrustedSigners: Sendable {
    private var names: [SignerKey: String] = [:]

    /// The signers `text` lists; `path` names the file in errors, with the line.
    public init(text: String, path: String) throws {
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            let words = trimmed.split(separator: " ", maxSplits: 1)
            guard words.count == 2, let key = SignerKey(text: String(words[1])) else {
                throw DocumentKitError(.malformedInput, "is not 'NAME documentkit-ed25519 KEY'", path: path, location: "line \(number + 1)")
            }
            names[key] = String(words[0])
        }
    }

    /// The signers in the file at `url`.
    public init(contentsOf url: URL) throws {
        let data = try OpenFile.forReading(url).readPrefix(1 << 20)
        try self.init(text: String(decoding: data, as: UTF8.self), path: url.relativePath)
    }

    /// The name the file gives `key`; `nil` when it is not trusted.
    public func name(of key: SignerKey) -> String? { names[key] }

    /// How many signers the file lists.
    public var count: Int { names.count }
}
