extension Error {
    /// What went wrong, in words, without the file: the `message` of DocumentKit's own
    /// errors (``DocumentKitError``, ``ArchiveError``, ``SystemError``), the description of
    /// any other. For reports that name the file themselves (a validation finding).
    package var failureMessage: String {
        switch self {
        case let error as DocumentKitError: error.message
        case let error as ArchiveError: error.message
        case let error as SystemError: error.message
        default: "\(self)"
        }
    }
}
