import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool.Import {
    /// `import BAG -o BUNDLE`, for a bag of every version that `export --all-versions` wrote.
    func importBagHistory(from bag: URL, to output: String) throws {
        if schema != nil {
            throw ValidationError("--schema does not go with a bag of every version: its versions record their schemas")
        }
        let result = try BagImporter.importHistory(
            from: bag, to: URL(fileURLWithPath: output), replace: force.force, dryRun: edit.dryRun)
        if options.json, edit.dryRun {
            return try Console.printJSON(PlannedImport(objectID: result.objectID, versions: result.versions))
        }
        if options.json { return try Console.printJSON(result) }
        let versions = "\(result.versions) version\(result.versions == 1 ? "" : "s") of project \(result.objectID)"
        Console.print(
            edit.dryRun
                ? "would import \(bag.relativePath) into \(output): \(versions); nothing was written"
                : "imported \(bag.relativePath) into \(output): \(versions), head \(result.head.prefix(12))")
    }
}
