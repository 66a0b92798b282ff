import Foundation

/// One file or folder of an exported tree, by its `/`-separated path.
package struct ExportedFile {
    package var path: String
    /// The file; `nil` for a folder.
    package var node: FileWrapper?

    /// The files of `version` as exports write them: blobs under their readable names
    /// (``ExportedBlobNames``), folders before their contents, sorted by path.
    package static func list(
        version: BundleVersion, of bundle: DocumentBundle, excludingNamesWith excluded: Set<Character> = []
    ) throws -> [ExportedFile] {
        let files = list(try bundle.tree(of: version))
        let document = files.first { $0.path == VersionLayout.documentName }?.node
        // A document that cannot be read is refused by the export's own read of it: here it
        // only records no names.
        let limit = BundleLimits.default.maxDocumentBytes
        return ExportedBlobNames.apply(
            to: files,
            document: {
                document.flatMap { ($0.fileSize ?? .max) <= limit ? try? $0.regularFileContents() : nil }
            }, excluding: excluded)
    }

    /// Every folder and file below `root`, folders before their contents, sorted by path.
    package static func list(_ root: FileWrapper, prefix: String = "") -> [ExportedFile] {
        var result: [ExportedFile] = []
        for (name, child) in (root.fileWrappers ?? [:]).sorted(by: { $0.key < $1.key }) {
            let path = prefix + name
            if child.isDirectory {
                result.append(ExportedFile(path: path, node: nil))
                result += list(child, prefix: path + "/")
            } else {
                result.append(ExportedFile(path: path, node: child))
            }
        }
        return result
    }
}
