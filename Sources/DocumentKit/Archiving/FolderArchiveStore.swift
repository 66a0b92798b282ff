import Foundation

/// An OCFL storage root in a local folder. Files are written through `AtomicReplacement`
/// (a temporary file beside the destination, flushed, renamed, the folder flushed), and a
/// moved folder's old and new parents are flushed, so that a version folder moved into
/// place stays there after a power loss.
public struct FolderArchiveStore: ArchiveStore {
    /// The storage root's folder.
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public var displayPath: String { root.relativePath }

    private func url(_ path: String) -> URL {
        path.isEmpty ? root : root.appendingPathComponent(path)
    }

    public func readFile(_ path: String) throws -> Data {
        let file = try OpenFile.forReading(url(path))
        return try file.readAll(limit: Int.max)
    }

    public func writeFileAtomically(_ path: String, _ data: Data) throws {
        _ = try AtomicReplacement.writeFile(at: url(path), replace: true) { file in
            try data.withUnsafeBytes { try file.write($0) }
        }
    }

    public func writeFileAtomically(_ path: String, streaming file: FileWrapper) throws {
        _ = try AtomicReplacement.writeFile(at: url(path), replace: true, flushing: false) { output in
            try file.streamContents { try output.write($0) }
        }
    }

    public func flush() throws {
        try SystemCall.synchronizeFileSystem(of: root.path, reportedAs: displayPath)
    }

    public func localFile(_ path: String, scratch: URL) throws -> URL {
        url(path)
    }

    public func list(_ path: String) throws -> [String] {
        guard isFolder(path) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: url(path).path).sorted()
        } catch {
            throw DocumentKitError.system("cannot list the folder", path: reported(path), error: error)
        }
    }

    public func exists(_ path: String) -> Bool {
        SystemCall.linkStatus(url(path).path) != nil
    }

    public func isFolder(_ path: String) -> Bool {
        guard let info = SystemCall.linkStatus(url(path).path) else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }

    public func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(at: url(path), withIntermediateDirectories: true)
        } catch {
            throw DocumentKitError.system("cannot create the folder", path: reported(path), error: error)
        }
    }

    public func move(_ source: String, to destination: String) throws {
        guard !exists(destination) else {
            throw DocumentKitError(.cannotCreateOutput, "already exists", path: reported(destination))
        }
        do {
            try FileManager.default.moveItem(at: url(source), to: url(destination))
        } catch {
            throw DocumentKitError.system("cannot move \(source) here", path: reported(destination), error: error)
        }
        // The move is durable once both folders are: the new name, then the old one gone.
        for folder in Set([url(destination).deletingLastPathComponent(), url(source).deletingLastPathComponent()]) {
            try OpenFile.folder(folder.path).synchronize()
        }
    }

    public func remove(_ path: String) throws {
        guard exists(path) else { return }
        do {
            try FileManager.default.removeItem(at: url(path))
        } catch {
            throw DocumentKitError.system("cannot remove it", path: reported(path), error: error)
        }
    }
}
