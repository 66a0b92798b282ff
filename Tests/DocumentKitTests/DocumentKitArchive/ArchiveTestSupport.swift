import Foundation
import Testing

@testable import DocumentKit

/// Writes a stored zip at `path` through `body`, then finishes it.
func writeStoredZip(at path: String, forcesZip64: Bool = false, _ body: (StoredZipWriter) throws -> Void) throws {
    let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    #expect(fd >= 0, "cannot create \(path)")
    defer { close(fd) }
    let writer = StoredZipWriter(fileDescriptor: fd, path: path, forcesZip64: forcesZip64)
    try body(writer)
    try writer.finish()
}

/// The bytes of the file at `path`.
func bytes(ofFile path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Writes `data` to a new file at `path`.
func writeBytes(_ data: Data, to path: String) throws {
    try data.write(to: URL(fileURLWithPath: path))
}

/// Expects `body` to throw an ``ArchiveError`` of `kind`; returns it for further checks.
@discardableResult
func expectArchiveError(
    _ kind: ArchiveError.Kind, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> ArchiveError? {
    do {
        try body()
        Issue.record("expected an ArchiveError of kind \(kind), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as ArchiveError {
        #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected an ArchiveError of kind \(kind), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Expects `body` to throw a ``SystemError`` with errno `number`; returns it for further checks.
@discardableResult
func expectSystemError(
    _ number: Int32, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> SystemError? {
    do {
        try body()
        Issue.record("expected a SystemError (errno \(number)), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as SystemError {
        #expect(error.number == number, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected a SystemError (errno \(number)), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
