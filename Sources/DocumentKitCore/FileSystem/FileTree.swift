import Foundation

/// The file system calls on whole trees and folders that Foundation makes well (walks,
/// recursive creation and removal, moves), for every layer: they go through Core, as every
/// system call does, so that the layers above hold no file system code of their own
/// (`SourceRulesTests`). Each rethrows Foundation's error as it is, for the caller to name
/// the file and the operation in its own words.
package enum FileTree {
    /// Whether something is at `path` (a link is followed).
    package static func exists(_ path: String) -> Bool {
        SystemCall.status(path) != nil
    }

    /// Whether `path` is a folder (a link is followed).
    package static func isFolder(_ path: String) -> Bool {
        guard let info = SystemCall.status(path) else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Whether `path` is a file this process may run.
    package static func isExecutable(_ path: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path)
    }

    /// The names in the folder at `path`, in no order.
    package static func names(in path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path)
    }

    /// The paths below the folder at `path`, relative to it, folders before what they hold;
    /// empty when it cannot be read.
    package static func paths(below path: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: path) else { return [] }
        return walk.compactMap { $0 as? String }
    }

    /// Calls `visit` with each path below the folder at `path`, relative to it, a folder
    /// before what it holds; a folder for which `visit` returns `false` is not entered.
    package static func walk(below path: String, _ visit: (_ relative: String) throws -> Bool) rethrows {
        guard let walk = FileManager.default.enumerator(atPath: path) else { return }
        for case let relative as String in walk where try !visit(relative) {
            walk.skipDescendants()
        }
    }

    /// The regular files below the folder at `url`, with their sizes; empty when it cannot
    /// be read.
    package static func regularFiles(below url: URL) -> [(url: URL, size: UInt64)] {
        let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
        guard let walk = FileManager.default.enumerator(at: url, includingPropertiesForKeys: keys) else { return [] }
        return walk.compactMap { item in
            guard let file = item as? URL, let values = try? file.resourceValues(forKeys: Set(keys)),
                values.isRegularFile == true
            else { return nil }
            return (file, UInt64(values.fileSize ?? 0))
        }
    }

    /// Creates the folder at `url` and the folders above it that are missing.
    package static func makeFolders(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Moves the file or folder at `source` to `destination`, which must not exist.
    package static func move(_ source: URL, to destination: URL) throws {
        try FileManager.default.moveItem(at: source, to: destination)
    }

    /// Removes the file or folder at `url`, with everything below it.
    package static func remove(_ url: URL) throws {
        try FileManager.default.removeItem(at: url)
    }

    /// Creates an empty file at `path`, replacing one there; `false` when it cannot.
    package static func createEmptyFile(_ path: String) -> Bool {
        FileManager.default.createFile(atPath: path, contents: nil)
    }

    /// The text of the UTF-8 file at `path`, or `nil` when it cannot be read.
    package static func text(of path: String) -> String? {
        try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// The bytes of the file at `url`, mapped rather than read where the system can.
    package static func mappedData(of url: URL) throws -> Data {
        try Data(contentsOf: url, options: .alwaysMapped)
    }
}
