import DocumentKitCore

extension Error {
    /// This error with the archive file and the entry filled in where it lacks them: an
    /// ``ArchiveError`` takes both, a ``SystemError`` the file; any other is left as it is.
    /// Lets low-level helpers that know neither throw, and their callers add the context.
    package func addingArchiveContext(path: String? = nil, entry: String? = nil) -> any Error {
        switch self {
        case let error as ArchiveError: error.adding(path: path, entry: entry)
        case let error as SystemError: error.adding(path: path)
        default: self
        }
    }
}
