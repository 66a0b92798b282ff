import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool.Key {
    struct Trust: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trust",
            abstract: "Trust someone's public key: add it, with a name, to your trusted signers.",
            discussion: """
                KEY is the line '\(DocumentTool.name) key show' printed for them, or a file holding it. \
                The line 'NAME documentkit-ed25519 KEY' is added to trusted_signers in your settings \
                folder (or to --trusted FILE), which 'verify' and 'pull --require-signed' read; \
                versions their key signed then show as signed by NAME. A key already trusted is \
                not added again.
                """)

        @Argument(
            help: ArgumentHelp(
                "The key: its line, as 'key show' prints it, or a file holding that line.", valueName: "key"))
        var key: String
        @Option(help: ArgumentHelp("The name to show for the key: one word, e.g. ada@example.org.", valueName: "name"))
        var name: String
        @Option(
            help: ArgumentHelp(
                "The trusted signers file to add to (default: trusted_signers in your settings folder).",
                valueName: "FILE"),
            completion: .file())
        var trusted: String?
        @OptionGroup var dryRun: DryRunOption
        @OptionGroup var output: OutputOptions

        func run() throws {
            let signer = try TrustedSigners.signer(fromArgument: key)
            let file = try trusted.map { URL(fileURLWithPath: $0) } ?? TrustedSigners.location()
            let addition = try TrustedSigners.trust(signer.key, name: name, inFileAt: file, dryRun: dryRun.dryRun)
            let report = TrustReport(addition, name: name, key: signer.key, file: file.relativePath)
            if output.json { return try Console.printJSON(report) }
            Console.print(report.text(dryRun: dryRun.dryRun))
        }
    }
}

/// What `key trust` reports.
struct TrustReport: Encodable {
    var file: String
    var fingerprint: String
    /// The name the key is trusted under; `nil` for a line without one.
    var name: String?
    /// Whether the line was added (false: the key was trusted already).
    var added: Bool

    init(_ addition: TrustedSigners.Addition, name: String, key: VerifyingKey, file: String) {
        self.file = file
        fingerprint = key.fingerprint
        switch addition {
        case .added:
            self.name = name
            added = true
        case .alreadyTrusted(let trustedName):
            self.name = trustedName
            added = false
        }
    }

    func text(dryRun: Bool) -> String {
        guard added else {
            return "\(fingerprint) is already trusted\(name.map { " as \($0)" } ?? "") in \(file); nothing was written"
        }
        return dryRun
            ? "would trust \(fingerprint) as \(name!) in \(file); nothing was written"
            : "trusted \(fingerprint) as \(name!) in \(file)"
    }
}
