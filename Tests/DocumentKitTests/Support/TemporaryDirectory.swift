import DocumentKit
import Foundation

@testable import SampleProject

/// A directory of its own for one test, under the system's temporary directory, removed
/// with everything in it when the value is released.
///
/// Each test makes its own, so tests can run in parallel:
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// let path = directory.path("bundle.zip")
/// ```
final class TemporaryDirectory {
    /// The directory.
    let url: URL

    /// Creates a unique directory whose name starts with `label` (by default the test's name).
    init(_ label: String = #function) throws {
        _ = Self.sampleTypes
        let safeLabel = String(label.map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(40))
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("DocumentKitTests-\(safeLabel)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    }

    /// The sample `Project`, configured for the library calls tests make in process, as
    /// docctl configures it for its commands. Every test makes a directory first, and so
    /// bootstraps the configuration before its first call.
    private static let sampleTypes: Void = {
        var configuration = DocumentKitConfiguration()
        configuration.documentTypes = [Project.self]
        DocumentKitConfiguration.bootstrap(configuration)
    }()

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory.
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}
