import ArgumentParser
import DocumentKit
import Foundation

/// The options of `docctl import --legacy-defaults FILE`.
struct LegacyDefaultsOptions: ParsableArguments {
    @Option(
        name: .customLong("legacy-defaults"),
        help: ArgumentHelp(
            "A UserDefaults domain exported as a property list (XML or binary) or JSON: import its drafts.",
            valueName: "file"),
        completion: .file())
    var file: String?
    @Option(
        help:
            """
            With --legacy-defaults and --output: the project's name (default: the export's project_name, else the \
            bundle's file name).
            """
    )
    var name: String?

    /// The paragraph of `docctl import --help` on legacy defaults.
    static let discussion = """
        With --legacy-defaults FILE, FILE is a UserDefaults domain exported as an XML or binary \
        property list or a JSON object (at most 16 MiB; it is only read). The strings of its \
        draft_posts become drafts of the project BUNDLE, added as one new version, or of a new \
        bundle with --output; blank ones are skipped. draft_post_dates, one date per string, \
        gives the drafts' creation times; without it they are created at the time of the \
        import. project_name names a new bundle unless --name does. Other keys are ignored \
        and listed. A draft's id comes from its text, so importing again adds only the drafts \
        the project does not have (leaving those it has as they are) and, with none to add, \
        saves no version.
        """
}

extension DocumentTool.Import {
    /// `docctl import --legacy-defaults FILE` takes the bundle to add to, or --output to
    /// create one, and none of the options of importing a document.
    func validateLegacyDefaults() throws {
        if source != nil, output != nil {
            throw ValidationError("--legacy-defaults takes the bundle to add to or --output for a new one, not both")
        }
        if source == nil, output == nil {
            throw ValidationError("Missing expected argument '<bundle>' (or --output <output> for a new bundle)")
        }
        if schema != nil { throw ValidationError("--schema does not go with --legacy-defaults") }
        if output == nil, legacy.name != nil {
            throw ValidationError("--name goes with --output: an existing bundle keeps its name")
        }
        if output == nil, force.force {
            throw ValidationError("--force goes with --output: an existing bundle is added to, not replaced")
        }
    }

    func importLegacyDefaults(from file: String) throws {
        let sourceURL = URL(fileURLWithPath: file)
        let metadata = try edit.metadata(defaultMessage: "Import legacy defaults from \(sourceURL.lastPathComponent)")
        let report =
            if let output {
                try LegacyDefaultsImporter.importDefaults(
                    from: sourceURL, creating: URL(fileURLWithPath: output), type: try DocumentTool.newDocumentType(),
                    name: legacy.name,
                    replace: force.force, dryRun: edit.dryRun, metadata: metadata)
            } else {
                try LegacyDefaultsImporter.importDefaults(
                    from: sourceURL, into: URL(fileURLWithPath: source ?? ""), type: try DocumentTool.newDocumentType(),
                    dryRun: edit.dryRun, metadata: metadata)
            }
        if options.json { return try Console.printJSON(report) }
        Console.print(Self.headline(report))
        let added = report.dryRun ? "\(report.draftsAdded) to add" : "\(report.draftsAdded) added"
        Console.print(
            """
              drafts: \(added), \(report.draftsAlreadyPresent) already there, \(report.blankDraftsSkipped) blank \
            skipped
            """
        )
        if !report.ignoredKeys.isEmpty {
            Console.print("  ignored keys: \(report.ignoredKeys.joined(separator: ", "))")
        }
    }

    /// `imported FILE into BUNDLE: saved version 2 (…)`, or what happened instead.
    private static func headline(_ report: LegacyDefaultsImporter.Report) -> String {
        let what = "\(report.source) into \(report.bundle)"
        if report.dryRun {
            let state = report.previous.map { ", now at \(Console.version($0))" } ?? ", a new bundle"
            return "would import \(what)\(state); nothing was written"
        }
        if let version = report.version {
            return "imported \(what): \(report.newBundle ? "created at" : "saved") \(Console.version(version))"
        }
        return "imported \(what): no change, it stays at \(report.previous.map(Console.version) ?? "its head")"
    }
}
