import Foundation
import Testing

@testable import DocumentKit

/// The holder of a bundle's writer lock, as `/proc/locks` names it, for the note a waiting
/// writer prints.
@Suite struct LockHolderTests {
    @Test func aLockIsTracedToTheProcessHoldingIt() throws {
        let directory = try TemporaryDirectory()
        try Data("x".utf8).write(to: directory.url.appendingPathComponent("b.dkproj"))
        let file = try OpenFile.forReading(directory.path("b.dkproj"))
        let status = try file.status()
        #expect(LockHolder.of(status) == nil, "nobody holds it yet")
        let before = Date()
        #expect(file.tryLock())
        let holder = try #require(LockHolder.of(status))
        #expect(holder.processID == getpid())
        let program = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
        #expect(holder.command?.hasPrefix(program) == true, "\(holder.command ?? "nil")")
        // The process started before the lock was taken, and within this test run.
        let started = try #require(holder.started)
        #expect(started <= before.addingTimeInterval(1))
        #expect(started > before.addingTimeInterval(-3_600))
        file.unlock()
        #expect(LockHolder.of(status) == nil, "released")
    }

    @Test func anotherFilesLockIsNotTaken() throws {
        let directory = try TemporaryDirectory()
        try Data("x".utf8).write(to: directory.url.appendingPathComponent("a"))
        try Data("y".utf8).write(to: directory.url.appendingPathComponent("b"))
        let a = try OpenFile.forReading(directory.path("a"))
        let b = try OpenFile.forReading(directory.path("b"))
        #expect(a.tryLock())
        defer { a.unlock() }
        #expect(LockHolder.of(try b.status()) == nil)
    }
}
