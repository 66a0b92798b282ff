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
                KEY', as ssh's allowed_signers), 'untrusted' for a good signature by a key they do \
                not list, or 'unsigned'. Every object, id and signature is checked: any altered \
                byte makes the exit status 1. With --require-signed, so does a version not signed \
                by a trusted key.
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
            if output.json {
                try Console.printJSON(report)
            } else {
                for version in report.versions.reversed() {
                    let who = switch version.status {
                    case "signed": "signed by \(version.signer ?? "a key") (\(version.key!))"
                    case "untrusted": "signed by an untrusted key (\(version.key!))"
                    case "invalid": "SIGNATURE INVALID"
                    default: "unsigned"
                    }
                    Console.print("version \(version.number)  \(version.id.prefix(12))  \(who)")
                }
                for finding in report.findings { Console.print("  \(finding)") }
                let signed = report.versions.filter { $0.status == "signed" }.count
                Console.print("\(target.bundle): \(report.valid ? "ok" : "ALTERED"): \(report.versions.count) versions, \(signed) signed\(signers == nil ? "" : " by trusted keys"); every object, id and signature checked")
            }
            if !report.valid { throw ExitCode(1) }
            if requireSigned, report.versions.contains(where: { $0.status != "signed" || signers == nil }) {
                Console.printError("\(target.bundle): not every version is signed by a trusted key\(signers == nil ? " (no trusted signers: give --trusted FILE)" : "")")
                throw ExitCode(1)
            }
        }
    }
}
