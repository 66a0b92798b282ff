import Foundation

/// Writes exported files into a new folder that appears at its destination in one
/// rename, so a reader never sees half an export and a failed export leaves nothing.
package enum ExportedFolder {
    /// Writes `files`, then the files `adding` returns once those are written (a bag's
    /// manifests, made of what `observing` saw of each file's bytes, by path), and moves
    /// the folder into place. Returns the number of files and bytes written.
    package static func write(
        _ files: [ExportedFile], to output: URL, replace: Bool,
        observing observe: (String, UnsafeRawBufferPointer) -> Void = { _, _ in },
        adding more: () throws -> [ExportedFile] = { [] }
    ) throws -> (Int, UInt64) {
        let staging = try StagingFolder(beside: output)
        var count = 0
        var bytes: UInt64 = 0
        var folders: [String] = []
        func write(_ file: ExportedFile) throws {
            // Names come from validated tree objects (or readable names checked as one
            // component each): no '..', no links. The staging folder is new and ours, so
            // nothing here can point out of it.
            let target = staging.url.appendingPathComponent(file.path).path
            if let node = file.node {
                let output = try OpenFile.creatingExclusively(target, mode: 0o666)
                try node.streamContents {
                    try output.write($0)
                    observe(file.path, $0)
                    ProgressMeter.advance(.written, by: $0.count)
                }
                try output.synchronize()
                count += 1
                bytes += node.fileSize ?? 0
            } else {
                guard SystemCall.makeFolder(target, mode: 0o777) else {
                    throw DocumentKitError.system("cannot create folder", path: target, errno: errno)
                }
                folders.append(file.path)
            }
        }
        try staging.writing {
            for file in files { try write(file) }
            for file in try more() { try write(file) }
        }
        try staging.synchronize(subfolders: folders)
        try staging.moveIntoPlace(mode: 0o777 & ~AtomicReplacement.currentUmask(), replace: replace)
        return (count, bytes)
    }
}
