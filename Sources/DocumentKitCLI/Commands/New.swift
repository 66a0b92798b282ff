import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Create a new project bundle.")

        @OptionGroup var target: BundleArgument
        @Option(help: "The project's name (default: the bundle's file name).")
        var name: String?
        @OptionGroup var force: ForceOption
        @OptionGroup var layout: LayoutOption
        @OptionGroup var edit: EditOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let projectName = name ?? target.url.deletingPathExtension().lastPathComponent
            let version = try BundleEdits.create(
                at: target.url, type: try DocumentTool.newDocumentType(), json: .object(["name": .string(projectName)]),
                metadata: layout.applied(to: edit.metadata(defaultMessage: "Create \(projectName)")),
                replace: force.force)
            let summary = VersionSummary(version)
            if output.json { return try Console.printJSON(summary) }
            Console.print(
                edit.dryRun
                    ? "would create \(target.bundle) at \(Console.version(summary)); nothing was written"
                    : "created \(target.bundle) at \(Console.version(summary))")
        }
    }
}
