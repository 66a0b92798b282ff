import Foundation

/// An OCFL object or storage root in a local folder, read: what `docctl import OBJECT`
/// reads. (Roots are written through ``FolderRemoteStore``, as remotes are.)
public struct FolderOCFLRoot: OCFLRootReading {
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

    public func localFile(_ path: String, scratch: URL) throws -> URL {
        url(path)
    }

    public func exists(_ path: String) -> Bool {
        SystemCall.linkStatus(url(path).path) != nil
    }
}
