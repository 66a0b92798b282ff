import Foundation
import Testing

@testable import DocumentKit

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
        #expect(
            try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)[.posixPermissions]
                as? Int == 0o700)
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
        #expect(
            open?.message
                == "is readable or writable by others (mode 0644); a signing key must be private: chmod 600 it")
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
        let ada = SigningKey.generate().publicKey
        let bob = SigningKey.generate().publicKey
        let cy = SigningKey.generate().publicKey
        #expect(VerifyingKey(text: ada.description) == ada)
        #expect(ada.fingerprint.hasPrefix("SHA256:") && ada.fingerprint.count == 23)
        // A line may be the key alone, as `key show` prints it: trusted, without a name.
        let trusted = try TrustedSigners(
            text: "# who I trust\n\nada@example.org \(ada)\nbob \(bob)\n\(cy)\n", path: "trusted")
        #expect(trusted.count == 3)
        #expect(trusted.name(of: ada) == "ada@example.org" && trusted.name(of: bob) == "bob")
        #expect(trusted.trusts(cy) && trusted.name(of: cy) == nil)
        #expect(
            !trusted.trusts(SigningKey.generate().publicKey) && trusted.name(of: SigningKey.generate().publicKey) == nil
        )
        let error = #expect(throws: DocumentKitError.self) {
            try TrustedSigners(text: "ada \(ada)\neve ssh-ed25519 AAAA\n", path: "trusted")
        }
        #expect(error?.description == "trusted: line 2: is not 'NAME documentkit-ed25519 KEY', one space between words")
    }

    /// Issue 23, item 27: one spelling of a line and of a key; every other is refused with
    /// its line, not read as the same key.
    @Test(arguments: [
        ("  bob KEY", "has a space before, after or between its words that is not one space: "),
        ("bob KEY ", "has a space before, after or between its words that is not one space: "),
        ("bob  KEY", "has a space before, after or between its words that is not one space: "),
        ("bob documentkit-ed25519  BASE64", "has a space before, after or between its words that is not one space: "),
        ("bob\tKEY", "holds a tab; words are separated by one space: "),
        ("bob KEY\r", "ends in a carriage return (CRLF); lines end in a line feed alone: "),
        ("bob documentkit-ed25519 OTHER", ""),
        ("bob documentkit-ed25519 BASE64=", ""),
        (" ", "has a space before, after or between its words that is not one space: ")
    ])
    func aLineSpelledOtherwiseIsRefused(_ line: String, _ problem: String) throws {
        let key = SigningKey.generate().publicKey
        let base64 = key.rawRepresentation.base64EncodedString()
        // The same 32 bytes with an unused bit of the last digit set.
        let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let last = base64.index(base64.endIndex, offsetBy: -2)
        let other = base64.replacingCharacters(
            in: last...last, with: String(digits[digits.firstIndex(of: base64[last])! + 1]))
        #expect(Data(base64Encoded: other) == key.rawRepresentation)
        #expect(VerifyingKey(text: "documentkit-ed25519 \(other)") == nil)
        #expect(
            VerifyingKey(text: "documentkit-ed25519  \(base64)") == nil && VerifyingKey(text: "\(key) ") == nil
                && VerifyingKey(text: " \(key)") == nil)
        let text = line.replacingOccurrences(of: "KEY", with: key.description).replacingOccurrences(
            of: "BASE64", with: base64
        )
        .replacingOccurrences(of: "OTHER", with: other)
        let error = #expect(throws: DocumentKitError.self) {
            try TrustedSigners(text: "# ok\n\(text)\n", path: "trusted")
        }
        #expect(
            error?.description
                == "trusted: line 2: \(problem)is not 'NAME documentkit-ed25519 KEY', one space between words")
        // A signature whose key or value is spelled otherwise does not hold.
        let id = String(repeating: "ab", count: 32)
        let signature = try VersionSignature(signing: id, with: SigningKey.generate())
        #expect(signature.signer(ofVersion: id) != nil)
        let value = signature.value
        let valueLast = value.index(value.endIndex, offsetBy: -3)  // 64 bytes end in "=="
        var respelled = signature
        respelled.value = value.replacingCharacters(
            in: valueLast...valueLast, with: String(digits[digits.firstIndex(of: value[valueLast])! + 1]))
        #expect(Data(base64Encoded: respelled.value) == Data(base64Encoded: value))
        #expect(respelled.signer(ofVersion: id) == nil)
    }

    /// `docctl key trust`: a line added to the file, made when missing; a key already there
    /// not added twice; a name that cannot be one word, or a file with a bad line, refused
    /// with nothing written.
    @Test func trustingAKeyAddsOneLine() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("settings/docctl/trusted_signers")
        let ada = SigningKey.generate().publicKey
        let bob = SigningKey.generate().publicKey
        #expect(try TrustedSigners.trust(ada, name: "ada", inFileAt: url, dryRun: true) == .added)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try TrustedSigners.trust(ada, name: "ada", inFileAt: url) == .added)
        #expect(
            try FileManager.default.attributesOfItem(atPath: url.deletingLastPathComponent().path)[.posixPermissions]
                as? Int == 0o700)
        #expect(try TrustedSigners.trust(ada, name: "other", inFileAt: url) == .alreadyTrusted(name: "ada"))
        try Data("ada \(ada)\n# no final line feed".utf8).write(to: url)
        #expect(try TrustedSigners.trust(bob, name: "bob@example.org", inFileAt: url) == .added)
        #expect(
            try String(contentsOf: url, encoding: .utf8) == "ada \(ada)\n# no final line feed\nbob@example.org \(bob)\n"
        )
        for name in ["", "two words", "#hash", "tab\there", VerifyingKey.kind] {
            let error = #expect(throws: DocumentKitError.self) {
                try TrustedSigners.trust(SigningKey.generate().publicKey, name: name, inFileAt: url)
            }
            #expect(error?.code == .usage)
        }
        try Data("ada \(ada)\r\n".utf8).write(to: url)
        let crlf = #expect(throws: DocumentKitError.self) { try TrustedSigners.trust(bob, name: "bob", inFileAt: url) }
        #expect(crlf?.location == "line 1")
        #expect(try String(contentsOf: url, encoding: .utf8) == "ada \(ada)\r\n")
        let line = try TrustedSigners.signer(fromArgument: "\(bob)")
        #expect(line.key == bob && line.name == nil)
        let file = try Fixtures.write(Data("bob \(bob)\n".utf8), to: "bob.pub", in: directory.url)
        let named = try TrustedSigners.signer(fromArgument: file.path)
        #expect(named.key == bob && named.name == "bob")
        try Data("\(bob)\n\(ada)\n".utf8).write(to: file)
        #expect(throws: DocumentKitError.self) { try TrustedSigners.signer(fromArgument: file.path) }
    }
}
