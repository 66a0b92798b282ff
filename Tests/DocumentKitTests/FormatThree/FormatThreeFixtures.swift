@testable import DocumentKit
import SampleProject
import Foundation

/// Format-3 bundles for tests, made through the library in one process: a new bundle in
/// format 3, then one-title saves (`docctl set` keeps a format-3 bundle in format 3).
enum FormatThreeFixtures {
    static let created = Date(timeIntervalSince1970: 1_767_225_600)

    /// The metadata of a save that writes format 3.
    static var metadata: SaveMetadata {
        var metadata = SaveMetadata(author: "test", created: created)
        metadata.formatVersion = 3
        return metadata
    }

    /// A project of `taskCount` tasks at `url`, in format 3, with `saves` one-title saves
    /// after the first version.
    @discardableResult
    static func project(at url: URL, taskCount: Int = 50, saves: Int) throws -> URL {
        _ = try BundleEditor.create(at: url, type: Project.self, json: GeneratedProject.document(taskCount: taskCount, seed: 3), metadata: metadata)
        try addSaves(saves, to: url, taskCount: taskCount)
        return url
    }

    /// Adds `saves` one-title saves to the bundle at `url`.
    static func addSaves(_ saves: Int, to url: URL, taskCount: Int = 50, from first: Int = 1) throws {
        for save in first..<(first + saves) {
            let path = try JSONPath(parsing: "tasks[\(save % taskCount)].title")
            _ = try BundleEditor.set(.string("Renamed in save \(save)"), at: path, in: url, metadata: metadata)
        }
    }
}
