#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A system call that failed: what was being done, the `errno` it failed with, and the
/// file, as the system reported them. It is the one error Core's file calls throw (as
/// swift-system's calls throw `Errno`); ``ArchiveError`` says what is wrong with an
/// archive's bytes, and nothing else. Every operation above the archive layer turns it
/// into a ``DocumentKitError`` whose code follows the errno (`init(_:)`).
///
/// ```swift
/// do { _ = try POSIXFile.open(path, flags: O_RDONLY) }
/// catch let error as SystemError where error.number == ENOENT { ... }
/// ```
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, in the words a message starts with: `cannot open`.
    public var operation: String
    /// The `errno` value the call failed with.
    public var number: Int32
    /// The file it was about, when known.
    public var path: String?

    /// Creates an error for `operation` failing with `number` on `path`.
    public init(_ operation: String, errno number: Int32, path: String? = nil) {
        self.operation = operation
        self.number = number
        self.path = path
    }

    /// The error of a call that just failed: the current `errno`.
    package static func current(_ operation: String, path: String?) -> SystemError {
        SystemError(operation, errno: errno, path: path)
    }

    /// `cannot open: No such file or directory`: how every failed system call is said.
    public var message: String { Self.message(operation, errno: number) }

    /// `"<path>: <message>"`, without the path when it is unknown.
    public var description: String { path.map { "\($0): \(message)" } ?? message }

    /// `cannot open: No such file or directory`, for `operation` and `number`.
    public static func message(_ operation: String, errno number: Int32) -> String {
        "\(operation): \(reason(errno: number))"
    }

    /// The system's words for `errno` `number`: `No space left on device`.
    public static func reason(errno number: Int32) -> String {
        String(cString: strerror(number))
    }

    /// The same error with `path` filled in when it had none.
    package func adding(path newPath: String?) -> SystemError {
        var copy = self
        if copy.path == nil { copy.path = newPath }
        return copy
    }
}
