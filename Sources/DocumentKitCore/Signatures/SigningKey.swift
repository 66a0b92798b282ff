import Crypto
import Foundation

/// A key that signs versions: an Ed25519 private key (RFC 8032, through swift-crypto),
/// kept in a file only its owner may read, as ssh keeps its keys.
///
/// What a key signs is a version's id, in a text of its own (``signedText(of:)``), so that
/// a signature of a version can never be taken for a signature of anything else. The key
/// is never printed or written anywhere but its own file; ``publicKey`` is what others
/// are given, to trust it.
public struct SigningKey: Sendable {
    /// The key's 32 bytes (swift-crypto's key type is not `Sendable`; it is made from
    /// these when it signs).
    private let raw: Data
    private var key: Curve25519.Signing.PrivateKey { try! Curve25519.Signing.PrivateKey(rawRepresentation: raw) }

    private init(key: Curve25519.Signing.PrivateKey) { raw = key.rawRepresentation }

    /// A new random key.
    public static func generate() -> SigningKey { SigningKey(key: Curve25519.Signing.PrivateKey()) }

    /// The key others verify this key's signatures with.
    public var publicKey: VerifyingKey { VerifyingKey(key.publicKey) }

    /// The signature of the version whose id is `id`.
    public func signature(ofVersion id: String) throws -> Data {
        try key.signature(for: Data(Self.signedText(of: id).utf8))
    }

    /// What a signature of version `id` signs: `documentkit-signature 1`, a newline, the id
    /// (64 lowercase hex digits) and a newline.
    public static func signedText(of id: String) -> String { "documentkit-signature 1\n\(id)\n" }

    // MARK: The key's file

    private static let header = "documentkit-ed25519-private-key 1"

    /// Writes the key to a new file at `url`, readable and writable by its owner alone
    /// (0600), creating its folder (0700) and the folders above it when missing. An
    /// existing file is never replaced.
    /// Refuses (`cannotCreateOutput`) when a file or link is at `url`: a key is never
    /// replaced. What ``write(to:)`` checks first, for a caller that only asks.
    public static func refuseExisting(at url: URL) throws {
        guard SystemCall.linkStatus(url.path) == nil else {
            throw DocumentKitError(
                .cannotCreateOutput, "already exists; a key is never replaced (move it away first)", path: url.path)
        }
    }

    public func write(to url: URL) throws {
        // The settings folders above it, as `mkdir -p` would (the umask's mode); the key's
        // own folder private.
        var missing: [String] = []
        var folder = url.deletingLastPathComponent()
        while SystemCall.status(folder.path) == nil, folder.path != "/" {
            missing.append(folder.path)
            folder = folder.deletingLastPathComponent()
        }
        for (index, path) in missing.reversed().enumerated()
        where !SystemCall.makeFolder(path, mode: index == missing.count - 1 ? 0o700 : 0o777) {
            throw DocumentKitError.system("cannot create the folder", path: path, errno: errno)
        }
        try Self.refuseExisting(at: url)
        // Exclusive: a file (or link) that appears meanwhile is refused, not written through.
        let file = try OpenFile.creatingExclusively(url.path, mode: 0o600)
        try file.write(Data("\(Self.header)\n\(raw.base64EncodedString())\n".utf8))
        try file.synchronize()
    }

    /// Reads the key in the file at `url`, refusing it, as ssh does, when anyone but its
    /// owner may read or write it (its mode must be 0600 or 0400) or may write its folder,
    /// or when the file is not the user's own.
    public init(contentsOf url: URL) throws {
        let file = try OpenFile.forReading(url)
        var info = stat()
        guard fstat(file.descriptor, &info) == 0 else {
            throw DocumentKitError.system("cannot read", path: url.relativePath, errno: errno)
        }
        guard info.st_uid == geteuid() else {
            throw DocumentKitError(.malformedInput, "is not your file; a signing key must be", path: url.relativePath)
        }
        guard info.st_mode & 0o077 == 0 else {
            throw DocumentKitError(
                .malformedInput,
                String(
                    format:
                        "is readable or writable by others (mode %04o); a signing key must be private: chmod 600 it",
                    info.st_mode & 0o7777), path: url.relativePath)
        }
        let folder = url.deletingLastPathComponent()
        if let folderInfo = SystemCall.status(folder.path), folderInfo.st_mode & 0o022 != 0 {
            throw DocumentKitError(
                .malformedInput,
                String(
                    format: "is in a folder others may write to (mode %04o): chmod 700 it",
                    folderInfo.st_mode & 0o7777),
                path: url.relativePath)
        }
        let lines = String(decoding: try file.readPrefix(512), as: UTF8.self).split(separator: "\n")
        guard lines.count == 2, lines[0] == Self.header, let raw = Data(base64Encoded: String(lines[1])),
            (try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)) != nil
        else {
            throw DocumentKitError(.malformedInput, "is not a DocumentKit signing key", path: url.relativePath)
        }
        self.raw = raw
    }
}
