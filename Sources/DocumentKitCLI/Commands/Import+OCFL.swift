import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool.Import {
    /// `import OBJECT -o BUNDLE`, for an OCFL object that `archive` wrote.
    func importOCFLObject(from object: URL, to output: String) throws {
        if schema != nil {
            throw ValidationError("--schema does not go with an OCFL object: its versions record their schemas")
        }
        if edit.dryRun {
            let plan = try OCFLImporter.plannedImport(
                at: "", in: FolderOCFLRoot(root: object), to: URL(fileURLWithPath: output), replace: force.force)
            if options.json {
                return try Console.printJSON(PlannedImport(objectID: plan.objectID, versions: plan.versions))
            }
            return Console.print(
                """
                would import \(object.relativePath) into \(output): \(plan.versions) \
                version\(plan.versions == 1 ? "" : "s") of object \(plan.objectID); nothing was written
                """
            )
        }
        let result = try OCFLImporter.importObject(from: object, to: URL(fileURLWithPath: output), replace: force.force)
        if options.json { return try Console.printJSON(result) }
        Console.print(
            """
            imported \(object.relativePath) into \(output): \(result.versions) \
            version\(result.versions == 1 ? "" : "s") of object \(result.objectID), head \(result.head.prefix(12))
            """
        )
    }
}
