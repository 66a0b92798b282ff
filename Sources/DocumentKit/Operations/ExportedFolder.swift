import Foundation

/// Writes exported files into a new folder that appears at its destination in one
/// rename, so a reader never sees half an export and a failed export leaves nothing.
package enum ExportedFolder {
    package static func write(_ files: [ExportedFile], to output: URL, replace: Bool) throws -> (Int, UInt64) {
        let staging = try StagingFolder(beside: output)
        var count = 0
        var bytes: UInt64 = 0
        try staging.writing {
            for file in files {
                // Names come from validated tree objects: single components, no '..', no
                // links. The staging folder is new and ours, so nothing here can point out of it.
                let target = staging.url.appendingPathComponent(file.path).path
                if let node = file.node {
                    let output = try OpenFile.creatingExclusively(target, mode: 0o666)
                    try node.streamContents {
                        try output.write($0)
                        ProgressMeter.advance(.written, by: $0.count)
                    }
                    try output.synchronize()
                    count += 1
                    bytes += node.fileSize ?? 0
                } else {
                    guard SystemCall.makeFolder(target, mode: 0o777) else { throw DocumentKitError.system("cannot create folder", path: target, errno: errno) }
                }
            }
        }
        try staging.synchronize(subfolders: files.filter { $0.node == nil }.map(\.path))
        try staging.moveIntoPlace(mode: 0o777 & ~AtomicReplacement.currentUmask(), replace: replace)
        return (count, bytes)
    }
}
