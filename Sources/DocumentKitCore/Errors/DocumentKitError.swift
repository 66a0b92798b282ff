import Foundation

/// The error every DocumentKit operation throws: what went wrong, where, and which
/// command-line exit status (sysexits) that corresponds to.
///
/// It is the one error an app catches. Below it are two of the lower layers' own: Core's
/// file calls throw ``SystemError`` (a failed system call and its errno), and the archive
/// layer adds ``ArchiveError``, whose kinds say what is wrong with a zip or tar file.
/// Every operation above those layers converts both to this type (`init(_:)`: a system
/// error is coded by its errno, as ``system(_:path:errno:)`` codes one; an archive error
/// is `malformedInput`). So does DocumentKitS3: its client's `S3Error` (what an S3
/// service answered) becomes this type in its remote store, before any operation of the
/// library sees it.
///
/// ```swift
/// do { _ = try DocumentBundle(contentsOf: url) }
/// catch let error as DocumentKitError where error.code == .unsupportedFormat { ... }
/// ```
public struct DocumentKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. Each maps to one sysexits exit status.
    public enum Code: String, Sendable, Codable {
        /// The call itself was wrong: a bad option, an unknown version name (64).
        case usage
        /// The input is not a well-formed bundle, archive or document (65).
        case malformedInput
        /// The document does not satisfy its schema or a rule of its type (65).
        case invalidDocument
        /// The bundle or document was written by a newer DocumentKit than this one (65).
        case unsupportedFormat
        /// A JSON path, version or entry named by the caller is not in the document (65).
        case notFound
        /// A file named as input does not exist (66).
        case missingInput
        /// An output could not be created, or exists and `force` was not given (73).
        case cannotCreateOutput
        /// Reading or writing failed at the operating-system level (74).
        case ioError
        /// Another writer holds the bundle's lock, or it changed since it was opened (75).
        case conflict
        /// A document type's migration plan is wrong (see `SchemaMigrationPlan`): a mistake
        /// in the program, not in its input (70, EX_SOFTWARE).
        case invalidMigrationPlan
        /// A remote service could not be reached: no answer from its endpoint (69,
        /// EX_UNAVAILABLE).
        case unavailable
        /// A remote service refused the credentials, or their permission (77, EX_NOPERM).
        case accessDenied
        /// The user abandoned an interactive operation, e.g. quit the editor of
        /// `docctl edit` with an error status or left its file empty (1, as `git commit`).
        case cancelled
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence saying what is wrong, without the location.
    public var message: String
    /// The file on disk concerned, when there is one.
    public var path: String?
    /// The entry, object, version or JSON path inside that file, when there is one.
    public var location: String?
    /// Each rule the document breaks, when this error refuses a document for its rules
    /// (a write transaction lists them all); empty otherwise.
    public var violations: [RuleViolation] = []
    /// What would get past the error, when something would: for the front end to offer
    /// in its own words (``Remedy``).
    public var remedy: Remedy?

    /// Creates an error. `path` is the file on disk, `location` the place inside it.
    public init(_ code: Code, _ message: String, path: String? = nil, location: String? = nil, remedy: Remedy? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.location = location
        self.remedy = remedy
    }

    /// `path: location: message`, leaving out what is unknown: always one line, since
    /// control characters (from a hostile entry name, say) are escaped.
    public var description: String {
        OneLineText.escaping([path, location, message].compactMap { $0 }.joined(separator: ": "))
    }

    /// The sysexits status a command-line tool should exit with.
    public var exitStatus: Int32 {
        switch code {
        case .usage: 64
        case .malformedInput, .invalidDocument, .unsupportedFormat, .notFound: 65
        case .missingInput: 66
        case .cannotCreateOutput: 73
        case .ioError: 74
        case .conflict: 75
        case .invalidMigrationPlan: 70
        case .unavailable: 69
        case .accessDenied: 77
        case .cancelled: 1
        }
    }

    /// The same error, with the file it concerns filled in when it had none.
    package func at(path newPath: String) -> DocumentKitError {
        var copy = self
        if copy.path == nil { copy.path = newPath }
        return copy
    }
}

extension DocumentKitError {
    /// Wraps an archive-level failure, keeping its path and entry: the archive is malformed.
    package init(_ error: ArchiveError) {
        self.init(.malformedInput, error.message, path: error.path, location: error.entry.map { "entry '\($0)'" })
    }

    /// Wraps a failed system call, coded by its errno as ``system(_:path:errno:)`` codes it.
    package init(_ error: SystemError) {
        self = Self.system(error.operation, path: error.path ?? "", errno: error.number)
        if error.path == nil { path = nil }
    }

    /// Turns `errno` from a failed system call on `path` into an error with the right code.
    package static func system(_ operation: String, path: String, errno number: Int32) -> DocumentKitError {
        let message = SystemError.message(operation, errno: number)
        switch number {
        case ENOENT, ENOTDIR:
            return DocumentKitError(.missingInput, message, path: path)
        case EACCES, EPERM, EROFS, EEXIST, EISDIR:
            return DocumentKitError(.cannotCreateOutput, message, path: path)
        default:
            return DocumentKitError(.ioError, message, path: path)
        }
    }

    /// The same for a failure Foundation reported (`FileManager`'s `CocoaError`, a
    /// `POSIXError`): its errno, worded and coded by ``system(_:path:errno:)``, never
    /// Foundation's own sentence ("You don’t have permission."), so that one failure reads
    /// the same whichever layer met it.
    package static func system(_ operation: String, path: String, error: any Error) -> DocumentKitError {
        if let error = error as? DocumentKitError { return error }
        return system(operation, path: path, errno: errnoNumber(of: error))
    }

    /// The errno behind a Foundation error: a `POSIXError`'s code, the POSIX error a
    /// `CocoaError` wraps, else the one its code stands for (`EIO` when none does).
    package static func errnoNumber(of error: any Error) -> Int32 {
        func posixNumber(_ error: any Error) -> Int32? {
            if let posix = error as? POSIXError { return posix.code.rawValue }
            let nsError = error as NSError
            return nsError.domain == NSPOSIXErrorDomain ? Int32(nsError.code) : nil
        }
        if let number = posixNumber(error) { return number }
        let nsError = error as NSError
        // FileManager's errors wrap the POSIX error (a `POSIXError` on Linux) they met.
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error, let number = posixNumber(underlying) {
            return number
        }
        guard nsError.domain == NSCocoaErrorDomain else { return EIO }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileWriteFileExists: return EEXIST
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileReadTooLarge: return EFBIG
        default: return EIO
        }
    }

    /// Runs `body`, turning any error it throws into a `DocumentKitError` located at `path`.
    ///
    /// An archive or system error gets `path` even when it names a file already: readers
    /// name the file as they opened it (absolute, or with links resolved), and messages
    /// name it as the user did.
    package static func located<T>(at path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DocumentKitError {
            throw error.at(path: path)
        } catch let error as ArchiveError {
            var converted = DocumentKitError(error)
            converted.path = path
            throw converted
        } catch let error as SystemError {
            // A system call names the file it was given; the message names it as the user did.
            var converted = DocumentKitError(error)
            converted.path = path
            throw converted
        }
    }
}
