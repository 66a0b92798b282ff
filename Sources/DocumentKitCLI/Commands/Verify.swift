import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check who saved each version, and that nothing in the bundle was altered.",
            discussion: """
                Lists every version with its signer: a name from the trusted signers (--trusted \
                FILE, else trusted_signers in your settings folder: lines 'NAME documentkit-ed25519 \
                KEY', as ssh's allowed_signers; add one with 'key trust'), 'you' for your own key, \
                'untrusted' for a good signature by a key they do not list, or 'unsigned'. Every \
                object, id, signature and recorded change is checked: any altered byte makes the \
                exit status 1. With --require-signed, so does a version not signed by a trusted \
                key; the last line is the one verdict.
                """)

        @OptionGroup var target: BundleArgument
        @Option(help: ArgumentHelp("The trusted signers file.", valueName: "FILE"), completion: .file())
        var trusted: String?
        @Flag(help: "Fail unless every version is signed by a trusted key.")
        var requireSigned = false
        @OptionGroup var output: OutputOptions

        func run() throws {
            let signers = try TrustedSigners.named(trusted)
            let report = try BundleVerifier.verify(target.url, trusted: signers)
            let signed = report.versions.filter { $0.status == .signed }.count
            let counts =
                "\(report.versions.count) versions, \(signed) signed\(signers == nil ? "" : " by trusted keys")"
            let unmet = requireSigned && (signers == nil || signed < report.versions.count)
            if output.json {
                try Console.printJSON(report)
            } else {
                for version in report.versions.reversed() {
                    let who =
                        switch version.status {
                        case .signed:
                            """
                            signed by \(version.signer ?? (signers == nil ? "a key" : "a trusted key")) \
                            (\(version.key!))
                            """
                        case .untrusted: "signed by an untrusted key (\(version.key!))"
                        case .invalid: "SIGNATURE INVALID"
                        case .unsigned: "unsigned"
                        }
                    Console.print("version \(version.number)  \(version.id.prefix(12))  \(who)")
                }
                for finding in report.findings { Console.print("  \(finding.described(byTool: DocumentTool.name))") }
            }
            // One verdict: altered, else short of --require-signed, else ok.
            if !report.valid {
                if !output.json {
                    Console.print("\(target.bundle): ALTERED: \(counts); every object, id and signature checked")
                }
                throw ExitCode(1)
            }
            if unmet {
                let none =
                    signers == nil
                    ? " (no trusted signers: give --trusted FILE, or trust keys with '\(DocumentTool.name) key trust')"
                    : ""
                Console.printError(
                    """
                    \(target.bundle): not every version is signed by a trusted key: \(counts)\(none); nothing was \
                    altered (every object, id and signature checked)
                    """
                )
                throw ExitCode(1)
            }
            if !output.json { Console.print("\(target.bundle): ok: \(counts); every object, id and signature checked") }
        }
    }
}
