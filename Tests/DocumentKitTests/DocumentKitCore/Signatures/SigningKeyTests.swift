@testable import DocumentKit
import Foundation
import Testing

/// Keys that sign versions: kept private as ssh keeps its keys, signatures that hold only
/// for the version and the key they were made for, and a trusted-signers file.
@Suite struct SigningKeyTests {
    private let id = String(repeating: "ab", count: 32)

    @Test func aSignatureHoldsForItsVersionAndKeyOnly() throws {
        let key = SigningKey.generate()
        let signature = try key.signature(ofVersion: id)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, ofVersion: id))
        #expect(!key.publicKey.isValidSignature(signature, ofVersion: String(repeating: "ab", count: 31) + "ac"))
        #expect(!SigningKey.generate().publicKey.isValidSignature(signature, ofVersion: id))
        var flipped = signature
        flipped[10] ^= 0x01
        #expect(!key.publicKey.isValidSignature(flipped, ofVersion: id))
        #expect(SigningKey.signedText(of: id) == "documentkit-signature 1\n\(id)\n")
    }

    @Test func theKeyFileIsPrivateInAPrivateFolderAndReadsBack() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("keys/signing.key")
        let key = SigningKey.generate()
        try key.write(to: url)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)[.posixPermissions] as? Int == 0o700)
        let read = try SigningKey(contentsOf: url)
        #expect(read.publicKey == key.publicKey)
        // Never replaced.
        #expect(throws: DocumentKitError.self) { try SigningKey.generate().write(to: url) }
        #expect(try SigningKey(contentsOf: url).publicKey == key.publicKey)
    }

    @Test func aKeyOthersCanReadOrReplaceIsRefused() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("keys/signing.key")
        try SigningKey.generate().write(to: url)
        chmod(url.path, 0o644)
        let open = #expect(throws: DocumentKitError.self) { try SigningKey(contentsOf: url) }
        #expect(open?.code == .malformedInput)
        #expect(open?.message == "is readable or writable by others (mode 0644); a signing key must be private: chmod 600 it")
        chmod(url.path, 0o600)
        chmod(url.deletingLastPathComponent().path, 0o777)
        let folder = #expect(throws: DocumentKitError.self) { try SigningKey(contentsOf: url) }
        #expect(folder?.message == "is in a folder others may write to (mode 0777): chmod 700 it")
        chmod(url.deletingLastPathComponent().path, 0o700)
        #expect(throws: Never.self) { try SigningKey(contentsOf: url) }
    }

    @Test func aFileThatIsNoKeyIsRefused() throws {
        let directory = try TemporaryDirectory()
        // Private whatever the umask (CI's may be 000), so that only the contents are wrong.
        chmod(directory.url.path, 0o700)
        let url = try Fixtures.write(Data("not a key\n".utf8), to: "signing.key", in: directory.url)
        chmod(url.path, 0o600)
        let error = #expect(throws: DocumentKitError.self) { try SigningKey(contentsOf: url) }
        #expect(error?.message == "is not a DocumentKit signing key")
    }

    @Test func trustedSignersNameTheirKeysAndBadLinesAreNamed() throws {
        let ada = SigningKey.generate().publicKey, bob = SigningKey.generate().publicKey
        #expect(SignerKey(text: ada.description) == ada)
        #expect(ada.fingerprint.hasPrefix("SHA256:") && ada.fingerprint.count == 23)
        let trusted = try TrustedSigners(text: "# who I trust\n\nada@example.org \(ada)\n  bob \(bob)  \n", path: "trusted")
        #expect(trusted.count == 2)
        #expect(trusted.name(of: ada) == "ada@example.org" && trusted.name(of: bob) == "bob")
        #expect(trusted.name(of: SigningKey.generate().publicKey) == nil)
        let error = #expect(throws: DocumentKitError.self) { try TrustedSigners(text: "ada \(ada)\neve ssh-ed25519 AAAA\n", path: "trusted") }
        #expect(error?.description == "trusted: line 2: is not 'NAME documentkit-ed25519 KEY'")
    }
}
