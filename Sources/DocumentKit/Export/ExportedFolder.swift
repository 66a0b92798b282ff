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
        // Each file and folder is flushed as it is written, up to a few; an export of more
        // (a site with a page for each of 26,447 versions) flushes its file system once at
        // the end (`syncfs`). Either way every byte is on disk before the rename that
        // publishes the folder.
        let flushedOneByOne = files.count <= flushedFilesLimit
        var count = 0
        var bytes: UInt64 = 0
        var folders: [String] = []
        func write(_ file: ExportedFile) throws {
            // Names come from validated tree objects (or readable names checked as one
            // component each): no '..', no links. The staging folder is new and ours, so
            // nothing here can point out of it.
            let target = staging.url.path + "/" + file.path
            if let node = file.node {
                let output = try OpenFile.creatingExclusively(target, mode: 0o666)
                try node.streamContents {
                    try output.write($0)
                    observe(file.path, $0)
                    ProgressMeter.advance(.written, by: $0.count)
                }
                if flushedOneByOne { try output.synchronize() }
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
        if flushedOneByOne {
            try staging.synchronize(subfolders: folders)
        } else {
            // Files and folders alike: a folder flushed one by one cost a journal commit
            // each (26,447 of them for a long history's site).
            try SystemCall.synchronizeFileSystem(of: staging.url.path, reportedAs: staging.reportedPath)
        }
        try staging.moveIntoPlace(mode: 0o777 & ~AtomicReplacement.currentUmask(), replace: replace)
        return (count, bytes)
    }

    /// The most files an export flushes one by one.
    static let flushedFilesLimit = 64
}
