import Foundation

/// What reading an OCFL object needs of where it is stored: a local folder
/// (``FolderArchiveStore``) or a remote (``RemoteStore``, which every writer of a root
/// goes through: a push, or an archive, which is a push to a folder).
public protocol OCFLRootReading: Sendable {
    /// A description of the root for messages: its path or address as the user gave it.
    var displayPath: String { get }
    /// The bytes of the file at `path`. Throws `missingInput` when there is none.
    func readFile(_ path: String) throws -> Data
    /// Whether anything is at `path`.
    func exists(_ path: String) -> Bool
    /// A local file holding the bytes at `path`, for reading them in a stream: the file
    /// itself when the storage is local, or a copy downloaded into the folder `scratch`.
    func localFile(_ path: String, scratch: URL) throws -> URL
}

extension OCFLRootReading {
    /// `path` as messages name it: below the root as the user gave it.
    public func reported(_ path: String) -> String {
        path.isEmpty ? displayPath : (displayPath as NSString).appendingPathComponent(path)
    }
}
