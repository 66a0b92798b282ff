import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Key: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "key",
            abstract: "Make or show the key that signs your saves, or trust someone else's.",
            discussion: """
                With a key, every save signs the new version's id, so that whoever receives the \
                bundle can check who saved each version with 'verify' and 'pull --require-signed'. \
                The key is kept private in your settings folder (mode 0600, in a folder only you \
                may write to), never printed, and refused when others could read it. 'key show' \
                prints the line to give others; 'key trust' adds someone's line to your trusted \
                signers.
                """,
            subcommands: [New.self, Show.self, Trust.self])

        struct New: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "new",
                abstract: "Make a new Ed25519 signing key; an existing key is never replaced.")
            @OptionGroup var dryRun: DryRunOption
            @OptionGroup var output: OutputOptions

            func run() throws {
                let url = try SigningKey.location()
                if dryRun.dryRun {
                    try SigningKey.refuseExisting(at: url)
                    return Console.print("would make a signing key in \(url.path); nothing was written")
                }
                let key = SigningKey.generate()
                try key.write(to: url)
                try KeyReport(key.publicKey, file: url.path).print(json: output.json, made: true)
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show",
                abstract: "Print your public key, the line others add to their trusted signers.",
                discussion: """
                    Give the line to those who receive your bundles: they trust it with \
                    '\(DocumentTool.name) key trust LINE --name NAME', or add it to their trusted_signers \
                    file as it is or after a name. Your own key is trusted without it.
                    """)
            @OptionGroup var output: OutputOptions

            func run() throws {
                let url = try SigningKey.location()
                guard let key = try SigningKey.forSaves() else {
                    throw DocumentKitError(
                        .missingInput, "no signing key; make one with '\(DocumentTool.name) key new'", path: url.path)
                }
                try KeyReport(key.publicKey, file: url.path).print(json: output.json, made: false)
            }
        }
    }
}

/// What `key new` and `key show` print: the public key, never the private one.
struct KeyReport: Encodable {
    var publicKey: String
    var fingerprint: String
    var file: String

    init(_ key: VerifyingKey, file: String) {
        publicKey = key.description
        fingerprint = key.fingerprint
        self.file = file
    }

    func print(json: Bool, made: Bool) throws {
        if json { return try Console.printJSON(self) }
        if made { Console.print("made a signing key in \(file) (\(fingerprint)); every save now signs its version") }
        Console.print("\(publicKey)")
    }
}
