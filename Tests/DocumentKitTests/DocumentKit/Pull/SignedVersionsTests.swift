import Foundation
import Testing

@testable import DocumentKit

/// Signed versions end to end: `key new`, saves that sign, `verify`, and
/// `pull --require-signed`, with tampering of every kind refused.
@Suite struct SignedVersionsTests {
    /// docctl with its settings (and so its signing key) in `config` under the test's folder.
    @discardableResult
    private func docctl(
        _ arguments: [String], in directory: TemporaryDirectory, as user: String = "ada", status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ExternalTool.Result {
        let result = try Run.docctl(
            arguments, in: directory.url, environment: ["XDG_CONFIG_HOME": directory.path("config-\(user)")])
        #expect(result.status == status, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        return result
    }

    private func trust(_ users: [String], in directory: TemporaryDirectory) throws {
        let lines = try users.map { user in "\(user) \(try docctl(["key", "show"], in: directory, as: user).output)" }
        try Fixtures.write(Data(lines.joined().utf8), to: "trusted", in: directory.url)
    }

    private func bundle(_ name: String, in directory: TemporaryDirectory) throws -> DocumentBundle {
        try DocumentBundle(contentsOf: directory.url.appendingPathComponent(name))
    }

    @Test func aNewKeyIsPrivateNeverPrintedAndNeverReplaced() throws {
        let directory = try TemporaryDirectory()
        let made = try docctl(["key", "new"], in: directory)
        let file = directory.path("config-ada/docctl/signing.key")
        let key = try SigningKey(contentsOf: URL(fileURLWithPath: file))
        #expect(
            made.output
                == """
                made a signing key in \(file) (\(key.publicKey.fingerprint)); every save now signs its \
                version\n\(key.publicKey)\n
                """
        )
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
        let secret = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")[1]
        #expect(!made.output.contains(secret))
        #expect(try docctl(["key", "show"], in: directory).output == "\(key.publicKey)\n")
        let again = try docctl(["key", "new"], in: directory, status: 73)
        #expect(again.standardError == "error: \(file): already exists; a key is never replaced (move it away first)\n")
        #expect(try SigningKey(contentsOf: URL(fileURLWithPath: file)).publicKey == key.publicKey)
    }

    @Test func everySaveIsSignedAndVerifyNamesItsSigner() throws {
        let directory = try TemporaryDirectory()
        try docctl(["new", "p.dkproj", "--name", "Plain"], in: directory)
        try docctl(["key", "new"], in: directory)
        try docctl(["set", "p.dkproj", "name", "Signed"], in: directory)
        try docctl(["key", "new"], in: directory, as: "bob")
        try docctl(["set", "p.dkproj", "name", "By Bob"], in: directory, as: "bob")
        try trust(["ada"], in: directory)
        let versions = try bundle("p.dkproj", in: directory).manifest.versions
        #expect(versions.map { $0.signature == nil } == [true, false, false])
        let ada = try SigningKey(contentsOf: URL(fileURLWithPath: directory.path("config-ada/docctl/signing.key")))
            .publicKey
        let bob = try SigningKey(contentsOf: URL(fileURLWithPath: directory.path("config-bob/docctl/signing.key")))
            .publicKey
        let verified = try docctl(["verify", "p.dkproj", "--trusted", "trusted"], in: directory)
        #expect(
            verified.output == """
                version 3  \(versions[2].shortID)  signed by an untrusted key (\(bob.fingerprint))
                version 2  \(versions[1].shortID)  signed by ada (\(ada.fingerprint))
                version 1  \(versions[0].shortID)  unsigned
                p.dkproj: ok: 3 versions, 1 signed by trusted keys; every object, id and signature checked

                """)
        // One verdict, worded once: the versions, then the failure alone, no "ok" before it.
        let required = try docctl(
            ["verify", "p.dkproj", "--trusted", "trusted", "--require-signed"], in: directory, status: 1)
        #expect(required.output == verified.output.split(separator: "\n").dropLast().map { $0 + "\n" }.joined())
        #expect(
            required.standardError
                == """
                error: p.dkproj: not every version is signed by a trusted key: 3 versions, 1 signed by trusted \
                keys; nothing was altered (every object, id and signature checked)\n
                """
        )
        #expect(try bundle("p.dkproj", in: directory).manifest.versions.allSatisfy { $0.computeID() == $0.id })
    }

    /// A signed bundle with one byte of `what` changed: verify must fail.
    @Test(arguments: ["object", "manifest", "signature"]) func oneChangedByteIsFound(_ what: String) throws {
        let directory = try TemporaryDirectory()
        try docctl(["key", "new"], in: directory)
        // Format 2, whose manifest.json holds the records this test changes.
        try docctl(["config", "set", "format-version", "2"], in: directory)
        try docctl(["new", "p.dkproj", "--name", "Signed"], in: directory)
        try docctl(["set", "p.dkproj", "summary", String(repeating: "long text ", count: 3)], in: directory)
        #expect(try docctl(["verify", "p.dkproj"], in: directory).status == 0)
        let url = directory.url.appendingPathComponent("p.dkproj")
        let bundle = try bundle("p.dkproj", in: directory)
        var data = try Data(contentsOf: url)
        switch what {
        case "object":
            let digest = try #require(try bundle.tree(of: bundle.headVersion)["document.json"]?.knownDigest)
            let entry = try #require(bundle.zip.entry(named: digest.entryName))
            data[Int(entry.dataOffset) + 20] ^= 0x01
        case "manifest":
            // The author, one letter changed, and the entry's CRC-32 made right again, so
            // that only the record lies.
            let entry = try #require(bundle.zip.entry(named: "manifest.json"))
            let range = Int(entry.dataOffset)..<Int(entry.dataOffset + entry.size)
            var manifest = data.subdata(in: range)
            let at = try #require(manifest.firstRange(of: Data(#""author" : ""#.utf8)))
            manifest[at.upperBound] ^= 0x01
            data.replaceSubrange(range, with: manifest)
            try Self.fixCRC(of: entry, in: &data, bundle: bundle)
        default:
            let entry = try #require(bundle.zip.entry(named: "manifest.json"))
            let range = Int(entry.dataOffset)..<Int(entry.dataOffset + entry.size)
            var manifest = data.subdata(in: range)
            let value = try #require(bundle.headVersion.signature?.value)
            let at = try #require(manifest.firstRange(of: Data(value.utf8)))
            manifest[at.lowerBound + 5] =
                manifest[at.lowerBound + 5] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            data.replaceSubrange(range, with: manifest)
            try Self.fixCRC(of: entry, in: &data, bundle: bundle)
        }
        try data.write(to: url)
        let result = try docctl(["verify", "p.dkproj"], in: directory, status: 1)
        #expect(result.output.contains("p.dkproj: ALTERED"), "\(result.output)")
        // A damaged zstd frame may not decode at all (object.unreadable) or decode to other
        // bytes (object.digest-mismatch): either is the object's finding.
        let expected = [
            "object": "object.", "manifest": "version.id-mismatch", "signature": "version.signature-invalid"
        ][what]!
        #expect(result.output.contains("error \(expected)"), "\(result.output)")
        if what == "signature" { #expect(result.output.contains("SIGNATURE INVALID")) }
    }

    /// Rewrites the CRC-32 of `entry` in its local header and central directory record.
    private static func fixCRC(of entry: StoredZipEntry, in data: inout Data, bundle: DocumentBundle) throws {
        let crc = CRC32.checksum(data.subdata(in: Int(entry.dataOffset)..<Int(entry.dataOffset + entry.size)))
        let bytes = withUnsafeBytes(of: crc.littleEndian) { Data($0) }
        data.replaceSubrange(Int(entry.localHeaderOffset) + 14..<Int(entry.localHeaderOffset) + 18, with: bytes)
        // The central directory record that names the entry: its CRC is at offset 16.
        let name = Data("manifest.json".utf8)
        var search = Int(bundle.zip.centralDirectoryOffset)
        while let at = data[search...].firstRange(of: Data([0x50, 0x4B, 0x01, 0x02])) {
            if data.subdata(in: at.lowerBound + 46..<at.lowerBound + 46 + name.count) == name {
                data.replaceSubrange(at.lowerBound + 16..<at.lowerBound + 20, with: bytes)
                return
            }
            search = at.upperBound
        }
        Issue.record("no central directory record for \(entry.name)")
    }

    @Test func requireSignedTakesOnlyVersionsATrustedKeySigned() throws {
        let directory = try TemporaryDirectory()
        try docctl(["key", "new"], in: directory)
        try docctl(["key", "new"], in: directory, as: "eve")
        try docctl(["new", "a.dkproj", "--name", "Shared"], in: directory)
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("b.dkproj"))
        try trust(["ada"], in: directory)
        try docctl(["set", "b.dkproj", "name", "By Eve"], in: directory, as: "eve")
        let digest = try Fixtures.digest(of: directory.url.appendingPathComponent("a.dkproj"))
        let eve = try bundle("b.dkproj", in: directory).headVersion
        let refused = try docctl(
            ["pull", "a.dkproj", "b.dkproj", "--require-signed", "--trusted", "trusted"], in: directory, status: 65)
        #expect(
            refused.standardError
                == """
                error: b.dkproj: version 2 (\(eve.shortID)) is signed by \
                \(eve.signature.flatMap { VerifyingKey(text: $0.key) }!.fingerprint), a key the trusted signers do \
                not list; nothing was pulled (--require-signed takes only versions signed by a trusted key)\n
                """
        )
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("a.dkproj")) == digest)
        // Ada's own versions pull; an unsigned one does not.
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent("a.dkproj"), to: directory.url.appendingPathComponent("c.dkproj"))
        try docctl(["set", "c.dkproj", "name", "By Ada"], in: directory)
        try docctl(["pull", "a.dkproj", "c.dkproj", "--require-signed", "--trusted", "trusted"], in: directory)
        try docctl(["set", "c.dkproj", "name", "Unsigned"], in: directory, as: "nobody")
        let unsigned = try docctl(
            ["pull", "a.dkproj", "c.dkproj", "--require-signed", "--trusted", "trusted"], in: directory, status: 65)
        #expect(
            unsigned.standardError.contains("version 3 (")
                && unsigned.standardError.contains(") is not signed; nothing was pulled (--require-signed"))
    }

    /// Issue 23, items 10 and 11: the line `key show` prints is what others trust, as it is
    /// or through `key trust`; your own key is trusted without either.
    @Test func theLineKeyShowPrintsIsTrustedAndYourOwnKeyIsToo() throws {
        let directory = try TemporaryDirectory()
        try docctl(["key", "new"], in: directory)
        try docctl(["new", "p.dkproj", "--name", "Signed"], in: directory)
        try docctl(["set", "p.dkproj", "name", "Still signed"], in: directory)
        let line = try docctl(["key", "show"], in: directory).output
        let ada = try #require(VerifyingKey(text: String(line.dropLast())))
        let ids = try bundle("p.dkproj", in: directory).manifest.versions.map(\.shortID)
        // Ada's own key, with no trusted signers at all.
        let own = try docctl(["verify", "p.dkproj", "--require-signed"], in: directory)
        #expect(
            own.output == """
                version 2  \(ids[1])  signed by you (\(ada.fingerprint))
                version 1  \(ids[0])  signed by you (\(ada.fingerprint))
                p.dkproj: ok: 2 versions, 2 signed by trusted keys; every object, id and signature checked

                """)
        // Bob, given the line: as it is, in a file...
        try Fixtures.write(Data(line.utf8), to: "ada.pub", in: directory.url)
        let asIs = try docctl(["verify", "p.dkproj", "--trusted", "ada.pub"], in: directory, as: "bob")
        #expect(asIs.output.hasPrefix("version 2  \(ids[1])  signed by a trusted key (\(ada.fingerprint))\n"))
        let unnamed = try docctl(["verify", "p.dkproj"], in: directory, as: "bob")
        #expect(unnamed.output.hasPrefix("version 2  \(ids[1])  signed by a key (\(ada.fingerprint))\n"))
        // ...or added with a name.
        let file = directory.path("config-bob/docctl/trusted_signers")
        let trusted = try docctl(["key", "trust", String(line.dropLast()), "--name", "ada"], in: directory, as: "bob")
        #expect(trusted.output == "trusted \(ada.fingerprint) as ada in \(file)\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "ada \(ada)\n")
        let named = try docctl(["verify", "p.dkproj", "--require-signed"], in: directory, as: "bob")
        #expect(named.output.hasPrefix("version 2  \(ids[1])  signed by ada (\(ada.fingerprint))\n"))
        let again = try docctl(["key", "trust", "ada.pub", "--name", "someone"], in: directory, as: "bob")
        #expect(again.output == "\(ada.fingerprint) is already trusted as ada in \(file); nothing was written\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "ada \(ada)\n")
        let json = try docctl(
            ["key", "trust", "ada.pub", "--name", "ada", "--trusted", "other", "--json"], in: directory, as: "bob")
        #expect(
            json.output == """
                {
                  "added" : true,
                  "file" : "other",
                  "fingerprint" : "\(ada.fingerprint)",
                  "name" : "ada"
                }

                """)
        #expect(try String(contentsOfFile: directory.path("other"), encoding: .utf8) == "ada \(ada)\n")
        // What is not one key's line, or not a name, is refused and nothing written.
        let twoSpaces = "documentkit-ed25519  " + ada.rawRepresentation.base64EncodedString()
        let spaced = try docctl(["key", "trust", twoSpaces, "--name", "eve"], in: directory, as: "bob", status: 65)
        #expect(
            spaced.standardError
                == """
                error: '\(twoSpaces)': has a space before, after or between its words that is not one space: is \
                not 'NAME documentkit-ed25519 KEY', one space between words (as 'docctl key show' prints it)\n
                """
        )
        let badName = try docctl(
            ["key", "trust", "ada.pub", "--name", "Ada Lovelace", "--trusted", "third"], in: directory, as: "bob",
            status: 64)
        #expect(
            badName.standardError
                == """
                error: the name 'Ada Lovelace' cannot be written in a trusted-signers line: give one word, without \
                spaces, not starting with '#'\n
                """
        )
        #expect(!FileManager.default.fileExists(atPath: directory.path("third")))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "ada \(ada)\n")
    }

    /// Issue 23, item 27: one spelling of a key, in a record and in the trusted signers.
    @Test(arguments: ["two spaces", "trailing space", "non-canonical base64"])
    func aKeySpelledOtherwiseIsNotTheKey(_ spelling: String) throws {
        let directory = try TemporaryDirectory()
        try docctl(["key", "new"], in: directory)
        try docctl(["config", "set", "format-version", "2"], in: directory)
        try docctl(["new", "p.dkproj", "--name", "Signed"], in: directory)
        let key = try #require(try bundle("p.dkproj", in: directory).headVersion.signature?.key)
        let base64 = String(key.dropFirst("documentkit-ed25519 ".count))
        // The last digit before '=' carries 4 bits of the key and 2 unused ones: setting one
        // of those spells the same 32 bytes otherwise.
        let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let last = base64.index(base64.endIndex, offsetBy: -2)
        let other = base64.replacingCharacters(
            in: last...last, with: String(digits[digits.firstIndex(of: base64[last])! + 1]))
        #expect(Data(base64Encoded: other) == Data(base64Encoded: base64))
        let spelled =
            switch spelling {
            case "two spaces": "documentkit-ed25519  \(base64)"
            case "trailing space": "documentkit-ed25519 \(base64) "
            default: "documentkit-ed25519 \(other)"
            }
        try Fixtures.write(Data("ada \(spelled)\n".utf8), to: "trusted", in: directory.url)
        let refused = try docctl(["verify", "p.dkproj", "--trusted", "trusted"], in: directory, as: "bob", status: 65)
        #expect(refused.standardError.hasPrefix("error: trusted: line 1: "), "\(refused.standardError)")
        let url = directory.url.appendingPathComponent("p.dkproj")
        try Fixtures.tamperManifest(
            url.path,
            "manifest['versions'][0]['signature']['key'] = \(JSONValue.string(spelled).jsonText(pretty: false))")
        let verified = try docctl(["verify", "p.dkproj"], in: directory, status: 1)
        #expect(
            verified.output.contains("SIGNATURE INVALID")
                && verified.output.contains("error version.signature-invalid"), "\(verified.output)")
    }

    /// Issue 23, item 26: what a signed record shows but its id does not cover is held to
    /// the trees, or refused.
    @Test(arguments: ["manifest['versions'][1]['changes']['blobs'] = []", "manifest['versions'][1]['reviewed'] = True"])
    func aSignedRecordAlteredWhereItsIdDoesNotReachIsFound(_ edit: String) throws {
        let directory = try TemporaryDirectory()
        try docctl(["key", "new"], in: directory)
        try docctl(["config", "set", "format-version", "2"], in: directory)
        try docctl(["new", "p.dkproj", "--name", "Signed"], in: directory)
        try Fixtures.write(Fixtures.png, to: "thumb.png", in: directory.url)
        try docctl(["attach", "p.dkproj", "thumb.png"], in: directory)
        #expect(try bundle("p.dkproj", in: directory).headVersion.changes?.blobs.count == 1)
        #expect(try docctl(["verify", "p.dkproj"], in: directory).output.contains("p.dkproj: ok: 2 versions, 2 signed"))
        try Fixtures.tamperManifest(directory.path("p.dkproj"), edit)
        let verified = try docctl(["verify", "p.dkproj"], in: directory, status: 1)
        let code = edit.contains("changes") ? "version.changes-mismatch" : "version.unknown-member"
        #expect(
            verified.output.contains("  error \(code): version 2: ")
                && verified.output.contains("p.dkproj: ALTERED: 2 versions, 2 signed by trusted keys"),
            "\(verified.output)")
        try docctl(["validate", "--deep", "p.dkproj"], in: directory, status: 1)
    }

    @Test func aKeyOthersCanReadStopsTheSave() throws {
        let directory = try TemporaryDirectory()
        try docctl(["new", "p.dkproj", "--name", "P"], in: directory)
        try docctl(["key", "new"], in: directory)
        let file = directory.path("config-ada/docctl/signing.key")
        chmod(file, 0o644)
        let digest = try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj"))
        let refused = try docctl(["set", "p.dkproj", "name", "Q"], in: directory, status: 65)
        #expect(
            refused.standardError
                == """
                error: \(file): is readable or writable by others (mode 0644); a signing key must be private: \
                chmod 600 it\n
                """
        )
        #expect(try Fixtures.digest(of: directory.url.appendingPathComponent("p.dkproj")) == digest)
    }
}

/// The help and JSON that scripts read, exactly.
@Suite struct PullAndVerifyOutputTests {
    @Test func pullsHelpIsPrintedExactly() throws {
        let help = try Run.docctl(["pull", "--help"], environment: ["COLUMNS": "80"])
        #expect(help.status == 0)
        #expect(
            help.output == """
                OVERVIEW: Bring another copy's versions into a bundle, merging when both were
                edited.

                OTHER is another copy of the same project (made by copying the file, or by
                pack). Its versions and blobs that BUNDLE lacks are added with their ids
                unchanged. When OTHER's history holds BUNDLE's head (BUNDLE has nothing new),
                OTHER's head becomes the head (fast-forward); when both were edited, one more
                version merges the two heads against their newest common version: changes made
                on one side are taken, records of both sides kept, and a value both sides
                changed differently, or a merge that breaks a rule of the document, is a
                conflict. Conflicts are listed and nothing is written (exit status 1) unless
                resolved: --ours or --theirs for all, --resolve PATH=ours|theirs for one, or
                --edit to write the merge in your editor. OTHER is only read, and checked whole
                before anything is taken from it. Copies of two different projects (no common
                version) are refused. OTHER may also be a remote (a folder, or
                s3://BUCKET/PREFIX, as for push): its copy of the project is read and checked
                first, fetching only the files BUNDLE lacks.

                USAGE: docctl pull [<options>] <bundle> [<other>]

                ARGUMENTS:
                  <bundle>                The bundle (.dkproj) to work on.
                  <other>                 The other copy to pull from: a bundle, or a remote (a
                                          folder, or s3://BUCKET/PREFIX; default: the bundle's
                                          remote.default, which clone sets).

                OPTIONS:
                  --ours                  Resolve every conflict with this bundle's value.
                  --theirs                Resolve every conflict with the other copy's value.
                  --resolve <PATH=ours|theirs>
                                          Resolve the conflicts at PATH with one side's value
                                          (repeatable); PATH as listed, or as for get:
                                          tasks[0].title, tasks[*].title, tasks[0]. One that
                                          names no conflict is an error.
                  --edit                  Write the merge in $VISUAL or $EDITOR, starting from
                                          it with this bundle's value at each conflict, and
                                          each conflict's three values above it.
                  --require-signed        Take no version that is not signed by a trusted key
                                          (see 'verify').
                  --trusted <FILE>        The trusted signers file for --require-signed.
                  -m, --message <message> Why: recorded in the version.
                  --author <author>       Who: recorded in the version (default: your
                                          author.name in 'docctl config', else your login name).
                  --dry-run               Do everything but write: check the change and report
                                          the version it would save.
                \(HelpText.remoteOptions)
                  --json                  Print machine-readable JSON instead of text.
                  -q, --quiet             Print nothing but errors, and no progress: the exit
                                          status tells.
                  -h, --help              Show help information.


                """)
    }

    @Test func verifysJSONIsExact() throws {
        let directory = try TemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": directory.path("config")]
        try Run.docctl(["new", "p.dkproj", "--name", "P"], in: directory.url)
        try Run.docctl(["key", "new"], in: directory.url, environment: environment)
        try Run.docctl(["set", "p.dkproj", "name", "Q"], in: directory.url, environment: environment)
        let bundle = try DocumentBundle(contentsOf: directory.url.appendingPathComponent("p.dkproj"))
        let key = try SigningKey(contentsOf: URL(fileURLWithPath: directory.path("config/docctl/signing.key")))
            .publicKey
        let (first, second) = (try bundle.manifest.versions[0].id, try bundle.manifest.versions[1].id)
        let verified = try Run.docctl(["verify", "p.dkproj", "--json"], in: directory.url, environment: environment)
        #expect(verified.status == 0)
        #expect(
            verified.output == """
                {
                  "file" : "p.dkproj",
                  "findings" : [],
                  "valid" : true,
                  "versions" : [
                    {
                      "id" : "\(first)",
                      "number" : 1,
                      "status" : "unsigned"
                    },
                    {
                      "id" : "\(second)",
                      "key" : "\(key.fingerprint)",
                      "number" : 2,
                      "signer" : "you",
                      "status" : "signed"
                    }
                  ]
                }

                """)
    }
}
