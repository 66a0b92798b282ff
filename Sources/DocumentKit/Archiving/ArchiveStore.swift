import Foundation

/// Where an OCFL storage root lives: the few operations archiving and importing need, on
/// `/`-separated paths relative to the root, so that a root on another kind of storage
/// (an S3 bucket, say) needs only another conformance.
///
/// The archiver's crash safety rests on two of them: `writeFileAtomically` (a reader sees
/// the old file or the new one, never a part) and `move` of a folder (a version folder
/// appears whole, or not at all). A store without an atomic folder move (S3) can still
/// keep OCFL's rule that a version counts only once the root inventory names it, since
/// the inventory is written last.
public protocol ArchiveStore: OCFLRootReading {
    /// Writes `data` to `path` so that the file is either as it was or complete; its
    /// folder must exist.
    func writeFileAtomically(_ path: String, _ data: Data) throws
    /// Writes the bytes of `file`, streamed, to `path` the same way, but may leave them
    /// unflushed until ``flush()``.
    func writeFileAtomically(_ path: String, streaming file: FileWrapper) throws
    /// Makes every file written so far durable.
    func flush() throws
    /// The names in the folder at `path` (`""` for the root), sorted; empty when it does
    /// not exist.
    func list(_ path: String) throws -> [String]
    /// Whether a folder is at `path`.
    func isFolder(_ path: String) -> Bool
    /// Creates the folder at `path` and any missing folders above it.
    func makeFolder(_ path: String) throws
    /// Moves the file or folder at `source` to `destination`, which must not exist, and
    /// makes the move durable.
    func move(_ source: String, to destination: String) throws
    /// Removes the file or folder (with everything in it) at `path`, if there is one.
    func remove(_ path: String) throws
}

/// What reading an OCFL object needs of where it is stored: a local folder
/// (``ArchiveStore``) or a remote (``RemoteStore``).
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
