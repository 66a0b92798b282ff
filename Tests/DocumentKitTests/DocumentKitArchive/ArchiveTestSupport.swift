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
    expectError(ArchiveError.self, "of kind \(kind)", sourceLocation: sourceLocation, body) { $0.kind == kind }
}

/// Expects `body` to throw a ``SystemError`` with errno `number`; returns it for further checks.
@discardableResult
func expectSystemError(
    _ number: Int32, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> SystemError? {
    expectError(SystemError.self, "(errno \(number))", sourceLocation: sourceLocation, body) { $0.number == number }
}

/// Expects `body` to throw an error of `type` that `matches`; returns it.
private func expectError<Expected: Error>(
    _ type: Expected.Type, _ wanted: String, sourceLocation: SourceLocation, _ body: () throws -> Void,
    matches: (Expected) -> Bool
) -> Expected? {
    do {
        try body()
        Issue.record("expected \(type) \(wanted), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as Expected {
        #expect(matches(error), "expected \(type) \(wanted): \(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected \(type) \(wanted), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}
