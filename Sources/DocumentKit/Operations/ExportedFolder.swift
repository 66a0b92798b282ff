import Foundation

/// Writes exported files into a new folder that appears at its destination in one
/// rename, so a reader never sees half an export and a failed export leaves nothing.
enum ExportedFolder {
    static func write(_ files: [ExportedFile], to output: URL, replace: Bool) throws -> (Int, UInt64) {
        let parent = output.deletingLastPathComponent()
        let staging = parent.appendingPathComponent(".\(output.lastPathComponent).dk-\(UInt32.random(in: 0...UInt32.max)).tmp")
        guard mkdir(staging.path, 0o700) == 0 else {
            throw DocumentKitError.system("cannot create a folder beside the output", path: staging.path, errno: errno)
        }
        var committed = false
        defer { if !committed { try? FileManager.default.removeItem(at: staging) } }
        var count = 0
        var bytes: UInt64 = 0
        for file in files {
            // Names come from validated tree objects: single components, no '..', no
            // links. The staging folder is new and ours, so nothing here can point out of it.
            let target = staging.appendingPathComponent(file.path).path
            if let node = file.node {
                let output = try OpenFile.creatingExclusively(target, mode: 0o666)
                try node.streamContents { try output.write($0) }
                try output.synchronize()
                count += 1
                bytes += node.fileSize ?? 0
            } else {
                guard mkdir(target, 0o777) == 0 else { throw DocumentKitError.system("cannot create folder", path: target, errno: errno) }
            }
        }
        guard chmod(staging.path, 0o777 & ~AtomicReplacement.currentUmask()) == 0 else {
            throw DocumentKitError.system("cannot set permissions", path: staging.path, errno: errno)
        }
        var displaced: URL?
        if replace, (try? FileManager.default.attributesOfItem(atPath: output.path)) != nil {
            let aside = parent.appendingPathComponent(".\(output.lastPathComponent).dk-old-\(UInt32.random(in: 0...UInt32.max)).tmp")
            guard rename(output.path, aside.path) == 0 else { throw DocumentKitError.system("cannot replace", path: output.relativePath, errno: errno) }
            displaced = aside
        }
        guard rename(staging.path, output.path) == 0 else {
            let number = errno
            if let displaced { rename(displaced.path, output.path) }
            throw DocumentKitError.system("cannot create", path: output.relativePath, errno: number)
        }
        committed = true
        if let displaced { try? FileManager.default.removeItem(at: displaced) }
        try AtomicReplacement.synchronizeDirectory(of: output)
        return (count, bytes)
    }
}
