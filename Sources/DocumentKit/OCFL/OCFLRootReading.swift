import Foundation

/// What reading an OCFL object needs of where it is stored: a local folder
/// (``FolderOCFLRoot``) or a remote (``RemoteStore``, which every writer of a root
/// goes through: a push, or an archive, which is a push to a folder).
public protocol OCFLRootReading: Sendable {
    /// A description of the root for messages: its path or address as the user gave it.
    var displayPath: String { get }
    /// The bytes of the file at `path`. Throws `missingInput` when there is none.
    func readFile(_ path: String) throws -> Data
    /// Whether anything is at `path`. A storage that cannot tell (a remote that does not
    /// answer) throws: a failure is never taken for absence.
    func exists(_ path: String) throws -> Bool
    /// A local file holding the bytes at `path`, for reading them in a stream: the file
    /// itself when the storage is local, or a copy downloaded into the folder `scratch`.
    func localFile(_ path: String, scratch: URL) throws -> URL
}

extension OCFLRootReading {
    /// The bytes of the file at `path`, or `nil` when there is none (`missingInput`); any
    /// other failure (a remote that does not answer) is thrown, never taken for absence.
    public func readFileIfPresent(_ path: String) throws -> Data? {
        do {
            return try readFile(path)
        } catch let error as DocumentKitError where error.code == .missingInput {
            return nil
        }
    }

    /// `path` as messages name it: below the root as the user gave it.
    public func reported(_ path: String) -> String {
        path.isEmpty ? displayPath : (displayPath as NSString).appendingPathComponent(path)
    }
}
