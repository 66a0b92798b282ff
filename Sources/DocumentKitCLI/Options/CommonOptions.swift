import ArgumentParser
import DocumentKit
import Foundation

/// `--json` and `--quiet`, for commands with output.
struct OutputOptions: ParsableArguments {
    @Flag(name: .long, help: "Print machine-readable JSON instead of text.")
    var json = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors, and no progress: the exit status tells.")
    var quiet = false

    // Set where the line is parsed, so that every report and the progress display see it.
    func validate() throws {
        if quiet { Console.quiet = true }
        if json { Console.json = true }
    }
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

    @Option(
        help:
            """
            Who: recorded in the version (default: your author.name in '\(ToolSetup.name) config', else your \
            login name).
            """
    )
    var author: String?

    @Flag(
        name: .customLong("dry-run"),
        help: "Do everything but write: check the change and report the version it would save.")
    var dryRun = false

    func metadata(defaultMessage: String) throws -> SaveMetadata {
        var metadata = SaveMetadata(
            author: try Authorship.author(author), message: message ?? defaultMessage, compression: .defaultForSaves(),
            signingKey: try SigningKey.forSaves())
        metadata.dryRun = dryRun
        metadata.formatVersion = BundleLayoutSetting.forSaves()
        return metadata
    }
}

/// What docctl prints after an edit.
struct EditReport: Codable {
    var saved: Bool
    var version: VersionSummary?
    var previous: VersionSummary?
    /// `true` for a dry run (`saved` is then `false`, and `version` what it would have saved).
    var dryRun: Bool?

    init(_ outcome: BundleEdits.Outcome, dryRun: Bool = false) {
        saved = outcome.version != nil && !dryRun
        version = outcome.version.map(VersionSummary.init)
        previous = VersionSummary(outcome.previous)
        self.dryRun = dryRun ? true : nil
    }

    func print(json: Bool, bundle: String) throws {
        if json { return try Console.printJSON(self) }
        if let version, dryRun == true {
            Console.print(
                "would save \(Console.version(version)) of \(bundle): \(version.message); nothing was written")
        } else if let version {
            Console.print("saved \(Console.version(version)) of \(bundle): \(version.message)")
        } else {
            Console.print("no change: \(bundle) stays at \(previous.map(Console.version) ?? "its head")")
        }
    }
}
