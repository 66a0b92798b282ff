import ArgumentParser
import DocumentKit
import Foundation

/// `--json`, for commands with output.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print machine-readable JSON instead of text.")
    var json = false
}

/// The bundle argument.
struct BundleArgument: ParsableArguments {
    @Argument(help: "The bundle (.dkproj) to work on.", completion: .file())
    var bundle: String

    var url: URL { URL(fileURLWithPath: bundle) }
}

/// What an edit records in the new version.
struct EditOptions: ParsableArguments {
    @Option(name: [.short, .customLong("message")], help: "Why: recorded in the version.")
    var message: String?

    @Option(help: "Who: recorded in the version (default: your author.name in '\(DocumentTool.name) config', else your login name).")
    var author: String?

    func metadata(defaultMessage: String) throws -> SaveMetadata {
        SaveMetadata(author: try Authorship.author(author), message: message ?? defaultMessage, compression: .defaultForSaves(),
                     signingKey: try SigningKey.forSaves())
    }
}

/// What docctl prints after an edit.
struct EditReport: Codable {
    var saved: Bool
    var version: VersionSummary?
    var previous: VersionSummary?

    init(_ outcome: BundleEditor.Outcome) {
        saved = outcome.version != nil
        version = outcome.version.map(VersionSummary.init)
        previous = VersionSummary(outcome.previous)
    }

    func print(json: Bool, bundle: String) throws {
        if json { return try Console.printJSON(self) }
        if let version {
            Console.print("saved \(Console.version(version)) of \(bundle): \(version.message)")
        } else {
            Console.print("no change: \(bundle) stays at \(previous.map(Console.version) ?? "its head")")
        }
    }
}
