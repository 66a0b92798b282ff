import ArgumentParser
import DocumentKit
import Foundation

extension DocumentTool {
    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls",
            abstract: "List a version's files: its document and its blobs (default: the head).",
            discussion: """
                One path a line, sorted, blobs under the names they were attached with, as exports \
                write them (blobs/photo.png). PATH keeps a file, or the files below a folder \
                (blobs/); a blob may also be named by its path in the version's tree \
                (blobs/<digest>). -l adds, before each path, the first 12 hex digits of its \
                SHA-256, its size in bytes and its media type; --json gives each file's path, \
                treePath, kind (document, blob or file), size, digest and mediaType.
                """)

        @OptionGroup var target: BundleArgument
        @Argument(help: "A file or folder of the version: document.json, blobs/, blobs/photo.png.")
        var path: String?
        @Flag(
            name: [.customShort("l"), .customLong("long")], help: "Also print each file's digest, size and media type.")
        var long = false
        @OptionGroup var version: VersionOption
        @OptionGroup var output: OutputOptions

        func run() throws {
            let files = try BundleLookup.files(of: target.url, version: version.name, under: path)
            if output.json { return try Console.printJSON(files) }
            // Names from the bundle are printed escaped: no file can forge a line.
            let paths = files.map { OneLineText.escaping($0.path) }
            guard long else {
                return Console.write(Data(paths.map { $0 + "\n" }.joined().utf8))
            }
            let types = files.map { OneLineText.escaping($0.mediaType) }
            let sizeWidth = files.map { String($0.size).count }.max() ?? 0
            let typeWidth = types.map(\.count).max() ?? 0
            let lines = files.indices.map { index in
                let size = String(files[index].size)
                let type = types[index]
                return
                    """
                    \(files[index].digest.prefix(12))  \
                    \(String(repeating: " ", count: sizeWidth - size.count))\(size)  
                    """
                        + "\(type)\(String(repeating: " ", count: typeWidth - type.count))  \(paths[index])\n"
            }
            Console.write(Data(lines.joined().utf8))
        }
    }
}
