import Foundation
import SampleProject
import Testing

@testable import DocumentKit

/// What a program chooses reaches the library as a `DocumentKitConfiguration` value, not
/// through process-wide settings (issue 26): two configurations are in force at once in one
/// process, each for the work started under it, on every thread that work uses.
@Suite struct ConfigurationTests {
    /// A configuration with the sample type, its own clock, its own meter and `timeout`.
    static func configuration(now: String, timeout: TimeInterval?) -> DocumentKitConfiguration {
        var configuration = DocumentKitConfiguration()
        configuration.documentTypes = [Project.self]
        configuration.fixedNow = DocumentDates.parse(now)
        configuration.workMeter = WorkMeter()
        configuration.lockTimeout = timeout
        return configuration
    }

    @Test func twoConfigurationsEditTwoDocumentsAtOnceEachWithItsOwnClockAndMeter() async throws {
        let directory = try TemporaryDirectory()
        let first = try Fixtures.copySampleDoc("small.dkproj", to: directory)
        let second = directory.url.appendingPathComponent("second.dkproj")
        try FileManager.default.copyItem(at: first, to: second)
        let early = Self.configuration(now: "2026-01-01T00:00:00Z", timeout: nil)
        let late = Self.configuration(now: "2030-06-01T12:00:00Z", timeout: nil)
        // Both at once, each saving on a thread of the library's own (BlockingWork), where
        // the configuration must follow the work.
        async let one: Void = early.apply {
            for save in 0..<6 {
                _ = try await BlockingWork.run {
                    try BundleEdits.set(
                        .string("Alpha \(save)"), at: JSONPath(parsing: "name"), in: first,
                        metadata: SaveMetadata(author: "a"))
                }
            }
        }
        async let two: Void = late.apply {
            for save in 0..<2 {
                _ = try await BlockingWork.run {
                    try BundleEdits.set(
                        .string("Omega \(save)"), at: JSONPath(parsing: "name"), in: second,
                        metadata: SaveMetadata(author: "b"))
                }
            }
        }
        _ = try await (one, two)
        #expect(
            try DocumentBundle(contentsOf: first).headVersion.created == DocumentDates.parse("2026-01-01T00:00:00Z"))
        #expect(
            try DocumentBundle(contentsOf: second).headVersion.created == DocumentDates.parse("2030-06-01T12:00:00Z"))
        // Each meter counted its own saves, six and two of about the same size, and none of
        // the other's (had both counted all, they would be equal; had one, the other zero).
        let stored = (
            try #require(early.workMeter).snapshot[.storedBytes] ?? 0,
            try #require(late.workMeter).snapshot[.storedBytes] ?? 0
        )
        #expect(stored.1 > 0)
        #expect(stored.0 > 2 * stored.1, "\(stored)")
        // Outside both, the bootstrapped configuration of the tests is in force again.
        #expect(DocumentKitConfiguration.current.fixedNow == nil)
        #expect(DocumentKitConfiguration.current.workMeter == nil)
    }

    @Test func aLockTimeoutHoldsOnlyForTheWorkConfiguredWithIt() throws {
        let directory = try TemporaryDirectory()
        let url = try Fixtures.copySampleDoc("small.dkproj", to: directory)
        var held: BundleLock? = try BundleLock.acquire(url)
        let impatient = Self.configuration(now: "2026-01-01T00:00:00Z", timeout: 0.2)
        let refused = #expect(throws: DocumentKitError.self) {
            try impatient.apply {
                try BundleEdits.set(
                    .string("x"), at: JSONPath(parsing: "name"), in: url, metadata: SaveMetadata(author: "a"))
            }
        }
        #expect(refused?.code == .conflict)
        #expect(refused?.message == "locked by another writer for more than 0.2 s")
        // A patient configuration on another thread waits for the lock and then saves.
        let patient = Self.configuration(now: "2026-02-01T00:00:00Z", timeout: nil)
        let saved = DispatchSemaphore(value: 0)
        WorkContext.current.detachThread {
            try? patient.apply {
                _ = try BundleEdits.set(
                    .string("Waited"), at: JSONPath(parsing: "name"), in: url, metadata: SaveMetadata(author: "a"))
            }
            saved.signal()
        }
        #expect(saved.wait(timeout: .now() + 0.5) == .timedOut, "it waits while the lock is held")
        #expect(held != nil)
        held = nil
        #expect(saved.wait(timeout: .now() + 30) == .success)
        #expect(try DocumentBundle(contentsOf: url).headVersion.created == DocumentDates.parse("2026-02-01T00:00:00Z"))
    }

    @Test func documentTypesAreTheConfigurationsAndTheLaterOfTwoWithOneContentTypeIsKept() {
        var configuration = DocumentKitConfiguration()
        #expect(configuration.documentType(for: Project.contentType.identifier) == nil)
        #expect(configuration.contentTypes.type(filenameExtension: "dkproj") == nil)
        configuration.documentTypes = [Project.self, Project.self]
        #expect(configuration.documentTypes.count == 1)
        #expect(configuration.documentType(for: Project.contentType.identifier) == Project.self)
        #expect(configuration.contentTypes.type(filenameExtension: "DKPROJ") == Project.contentType)
        #expect(configuration.contentTypes.type(identifier: "public.png") == .png)
    }
}
